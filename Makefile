# The two commands of the README. Each sets up what it needs on first use.
VENV ?= .venv

.PHONY: demo test test-all lint setup setup-dev

demo: setup
	$(VENV)/bin/aka demo

test: setup-dev
	$(VENV)/bin/pytest

# Everything, including slow native compiles (GPU tests still skip without a GPU).
test-all: setup-dev
	$(VENV)/bin/pytest -m "slow or not slow"

lint: setup-dev
	$(VENV)/bin/ruff check src tests benchmarks

setup: $(VENV)/.aka-setup

setup-dev: $(VENV)/.aka-setup-dev

$(VENV)/.aka-setup: pyproject.toml scripts/setup.sh
	scripts/setup.sh
	touch $@

$(VENV)/.aka-setup-dev: pyproject.toml scripts/setup.sh scripts/install-agent-clis.sh
	scripts/setup.sh --dev
	touch $(VENV)/.aka-setup $@
