#!/usr/bin/env bash
# Set up a fresh machine for AgentKernelArena: a virtualenv in .venv with the arena installed.
#   scripts/setup.sh          runtime only (what `make demo` needs)
#   scripts/setup.sh --dev    also the test tools, the HIP compile-only toolchain, and the agent
#                             programs of the end-to-end tests (scripts/install-agent-clis.sh)
# On a machine whose python3 already has a CUDA/ROCm torch (GPU images), the venv reuses it;
# elsewhere it installs the CPU build of torch (pinned: an unpinned torch pulls a CUDA build of
# several GB) and Triton, whose interpreter runs kernels on the CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
PYTHON=${PYTHON:-python3}
dev=0
[ "${1:-}" = "--dev" ] && dev=1

"$PYTHON" -c 'import sys; assert sys.version_info >= (3, 10), "Python >= 3.10 is needed"'

system_gpu_torch=0
if "$PYTHON" -c 'import torch, triton, sys; sys.exit(0 if torch.cuda.is_available() else 1)' \
    >/dev/null 2>&1; then
  system_gpu_torch=1
fi

if [ ! -x "$VENV/bin/python" ]; then
  if [ $system_gpu_torch = 1 ]; then
    "$PYTHON" -m venv --system-site-packages "$VENV"
  else
    "$PYTHON" -m venv "$VENV"
  fi
fi
PIP="$VENV/bin/python -m pip"
if ! "$VENV/bin/python" -c 'import torch, triton' >/dev/null 2>&1; then
  echo "setup: installing torch (CPU build) and triton into $VENV"
  $PIP install -q "torch==${AKA_TORCH_VERSION:-2.13.0}" triton
fi
# bubblewrap: the sandbox of the agents and of the candidate's evaluation process (without it
# `aka eval` and `aka run` refuse unless told --sandbox off). Needs root or passwordless sudo.
if ! command -v bwrap >/dev/null; then
  as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo -n "$@"; else return 1; fi; }
  if command -v apt-get >/dev/null && { as_root apt-get install -y -q bubblewrap >/dev/null 2>&1 ||
      { as_root apt-get update -q >/dev/null 2>&1 && as_root apt-get install -y -q bubblewrap >/dev/null 2>&1; }; }; then
    echo "setup: installed bubblewrap"
  else
    echo "setup: WARNING: bubblewrap not installed (apt-get install -y bubblewrap): evaluations need --sandbox off" >&2
  fi
fi
if [ $dev = 1 ]; then
  $PIP install -q -e ".[dev]"
  if [ "${AKA_SKIP_HIP:-0}" != 1 ] && [ -x scripts/install-hip-toolchain.sh ]; then
    scripts/install-hip-toolchain.sh || echo "setup: HIP toolchain not installed; HIP compile tests will be skipped"
  fi
  # Headless Chromium for the HTML report's browser test (tests/runner/test_report_browser.py;
  # skipped without it). Debian's package; AKA_SKIP_CHROMIUM=1 leaves it out.
  if [ "${AKA_SKIP_CHROMIUM:-0}" != 1 ] && ! command -v chromium >/dev/null && command -v apt-get >/dev/null; then
    as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo -n "$@"; else return 1; fi; }
    if as_root apt-get install -y -q --no-install-recommends chromium >/dev/null 2>&1 ||
        { as_root apt-get update -q >/dev/null 2>&1 && as_root apt-get install -y -q --no-install-recommends chromium >/dev/null 2>&1; }; then
      echo "setup: installed chromium (the HTML report's browser test)"
    else
      echo "setup: chromium not installed; the HTML report's browser test will be skipped"
    fi
  fi
  # The pinned upstream releases of the repository tasks (sha256-verified, into $AKA_CACHE_DIR or
  # ~/.cache/agentkernelarena): their checks and tests then run offline.
  "$VENV/bin/aka" tasks fetch repository ||
    echo "setup: WARNING: upstream releases not fetched; the repository tasks' tests will be skipped" >&2
  # The agent programs of the end-to-end agent tests (pinned), and bubblewrap for the sandbox.
  if [ -x scripts/install-agent-clis.sh ]; then
    VENV="$VENV" scripts/install-agent-clis.sh || echo "setup: agent CLIs not installed; their end-to-end tests will be skipped"
  fi
else
  $PIP install -q -e .
fi
echo "setup: done ($("$VENV/bin/python" -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__, "gpu" if torch.cuda.is_available() else "cpu")'))"
