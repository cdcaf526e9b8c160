#!/usr/bin/env bash
# New tasks on a GPU in one device call: native tasks built in parallel (CPU) while the Triton
# tasks are timed on the GPU, then the native tasks timed (benchmarks/new_task_times.py,
# visible configurations: baseline in 0.05-20 ms, baseline/solution/starting kernel correct,
# solution speedup per configuration).
# Usage: benchmarks/validate_new_tasks.sh OUT_DIR TRITON_LIST NATIVE_LIST [BUDGET_S=520]
#   the lists: files of task ids, one per line (repository tasks go with the Triton ones).
#   Summarize: python3 benchmarks/classify_task_times.py OUT_DIR/*/times.json.
# Repository tasks need their pinned releases, and the GPU machine has no network: fill
# `.aka-cache` here first (AKA_CACHE_DIR=$PWD/.aka-cache aka tasks fetch repository) and carry
# it with the device call; its upstream/ folder is copied into the cache used there.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: OUT_DIR TRITON_LIST NATIVE_LIST [BUDGET_S]}; triton=${2:?}; native=${3:?}
budget=${4:-520}
export PYTHONPATH=$PWD/src${PYTHONPATH:+:$PYTHONPATH} AKA_CACHE_DIR=${AKA_CACHE_DIR:-/tmp/akacache}
mkdir -p "$out"
if [ -d .aka-cache/upstream ]; then
  mkdir -p "$AKA_CACHE_DIR" && cp -r .aka-cache/upstream "$AKA_CACHE_DIR/"
fi
python3 -c "
import sys; sys.path.insert(0, 'benchmarks')
from new_task_times import prebuild
from agentkernelarena.tasks.loader import discover_tasks, select_tasks
prebuild(select_tasks(open('$native').read().split(), discover_tasks()), 12)
" > "$out/prebuild.log" 2>&1 &
pre=$!
# The Triton (and repository) tasks get 45% of the budget, or all of it without native ones.
share=45; [ -z "$(tr -d '[:space:]' < "$native")" ] && share=100
timeout $((budget * share / 100)) python3 benchmarks/new_task_times.py --splits visible \
  --out "$out/triton" $(cat "$triton") > "$out/triton.log" 2>&1
echo "triton timed (rc $?) at $SECONDS s"
wait $pre; echo "native built at $SECONDS s"; tail -1 "$out/prebuild.log"
if [ "$share" -lt 100 ]; then
  timeout $((budget - SECONDS)) python3 benchmarks/new_task_times.py --splits visible \
    --out "$out/native" $(cat "$native") > "$out/native.log" 2>&1
  echo "native timed (rc $?) at $SECONDS s"
fi
