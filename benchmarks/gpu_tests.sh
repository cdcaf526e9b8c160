#!/usr/bin/env bash
# The evaluator's verdict tests, the red-team suite and the broken native candidates (device
# fault, deadlock, build cache), run on a GPU (the CI runs what it can of them on the CPU).
# Usage: benchmarks/gpu_tests.sh OUT_DIR
# Each test starts evaluation workers (a CUDA context each): ~50 of them take 5+ minutes one at a
# time. With pytest-xdist importable (on a machine that cannot install it, carry its wheel and
# execnet's), they run 8 at once: ~2 minutes on an H200.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: benchmarks/gpu_tests.sh OUT_DIR}
mkdir -p "$out"
{
  echo "# date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/# gpu: /'
  python3 -c 'import torch, triton, sys; print("# python", sys.version.split()[0], "torch", torch.__version__, "triton", triton.__version__)'
  parallel=()
  python3 -c 'import xdist' 2>/dev/null && parallel=(-n "${AKA_TEST_JOBS:-8}")
  AKA_TEST_PLATFORM=cuda PYTHONPATH=src${PYTHONPATH:+:$PYTHONPATH} python3 -m pytest \
    -p no:cacheprovider -q -rA "${parallel[@]}" \
    tests/redteam tests/test_eval_verdicts.py tests/native/test_native_verdicts.py \
    tests/test_standby.py 2>&1
} | tee "$out/gpu_tests.log"
