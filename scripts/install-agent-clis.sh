#!/usr/bin/env bash
# Install the agent programs the end-to-end tests run, pinned, into project-local places:
#   Claude Code and Codex (npm)  -> .tools/node_modules   (npm --prefix; AKA_TOOLS_DIR overrides)
#   mini-swe-agent (PyPI)        -> the venv ($VENV, default .venv)
#   bubblewrap (Debian)          -> the system, for the agent sandbox (needs root)
# Each step is skipped when the pinned version is already there; a step that fails only warns
# (the tests that need that program then skip). AKA_SKIP_AGENT_CLIS=1 skips everything.
# The arena finds the npm CLIs in .tools without any PATH change (agents/process.py).
set -uo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
TOOLS=${AKA_TOOLS_DIR:-.tools}
CLAUDE_CODE_VERSION=2.1.197
CODEX_VERSION=0.171.0
MINI_SWE_AGENT_VERSION=2.4.6

[ "${AKA_SKIP_AGENT_CLIS:-0}" = 1 ] && { echo "agent CLIs: skipped (AKA_SKIP_AGENT_CLIS=1)"; exit 0; }
warn() { echo "agent CLIs: WARNING: $*" >&2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo -n "$@"; else return 1; fi; }
apt_install() {
  command -v apt-get >/dev/null || return 1
  as_root apt-get install -y -q "$@" >/dev/null 2>&1 ||
    { as_root apt-get update -q >/dev/null 2>&1 && as_root apt-get install -y -q "$@" >/dev/null 2>&1; }
}

# bubblewrap: the sandbox the agents run in (DESIGN.md §4).
if ! command -v bwrap >/dev/null; then
  echo "agent CLIs: installing bubblewrap"
  apt_install bubblewrap || warn "bubblewrap not installed: agents will run without a sandbox"
fi

# npm CLIs. Node is only needed to install them (and for Codex's small launcher script).
if ! command -v npm >/dev/null; then
  echo "agent CLIs: installing nodejs and npm"
  apt_install nodejs npm || warn "npm not available: Claude Code and Codex not installed"
fi
if command -v npm >/dev/null; then
  have() { "$TOOLS/node_modules/.bin/$1" --version </dev/null 2>/dev/null | grep -q "$2"; }
  if ! have claude "$CLAUDE_CODE_VERSION" || ! have codex "$CODEX_VERSION"; then
    echo "agent CLIs: npm install @anthropic-ai/claude-code@$CLAUDE_CODE_VERSION @openai/codex@$CODEX_VERSION into $TOOLS"
    mkdir -p "$TOOLS"
    npm install --prefix "$TOOLS" --no-audit --no-fund --loglevel=error \
      "@anthropic-ai/claude-code@$CLAUDE_CODE_VERSION" "@openai/codex@$CODEX_VERSION" ||
      warn "npm install failed"
    # Claude Code's postinstall puts its native binary in place; npm versions that hold back
    # install scripts leave a stub, so run it here when needed.
    if ! have claude "$CLAUDE_CODE_VERSION" && [ -f "$TOOLS/node_modules/@anthropic-ai/claude-code/install.cjs" ]; then
      (cd "$TOOLS/node_modules/@anthropic-ai/claude-code" && node install.cjs) || warn "claude postinstall failed"
    fi
  fi
  have claude "$CLAUDE_CODE_VERSION" || warn "Claude Code $CLAUDE_CODE_VERSION is not working"
  have codex "$CODEX_VERSION" || warn "Codex $CODEX_VERSION is not working"
fi

# mini-swe-agent, into the arena's venv.
if [ -x "$VENV/bin/python" ]; then
  if [ "$("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("mini-swe-agent"))' 2>/dev/null)" != "$MINI_SWE_AGENT_VERSION" ]; then
    echo "agent CLIs: pip install mini-swe-agent==$MINI_SWE_AGENT_VERSION into $VENV"
    "$VENV/bin/python" -m pip install -q "mini-swe-agent==$MINI_SWE_AGENT_VERSION" ||
      warn "mini-swe-agent not installed"
  fi
else
  warn "no venv at $VENV: mini-swe-agent not installed (run scripts/setup.sh first)"
fi
echo "agent CLIs: done"
