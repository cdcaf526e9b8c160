#!/usr/bin/env bash
# `aka tasks check` with the soundness checks on the cuda platform, for every bundled task (or
# the selectors given): per task the baseline and the solution timed with the draw extremes,
# A/A, the speed-of-light bound, the solution's speedup per configuration, every known-wrong
# variant caught. One JSON report and one log per task in OUT_DIR, then OUT_DIR/summary.md.
#
# Usage: benchmarks/tasks_check_gpu.sh OUT_DIR [SELECTOR ...]   (default: all bundled tasks)
#   AKA_GPUS=N        tasks spread over N GPUs, one task per GPU at a time (default: all GPUs)
#   AKA_TASK_TIMEOUT  seconds per task (default 900)
# Resumable: a task whose JSON report exists is skipped, so a run cut short by a time limit
# continues where it stopped when run again with the same OUT_DIR.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: benchmarks/tasks_check_gpu.sh OUT_DIR [SELECTOR ...]}
shift
mkdir -p "$out"
export PYTHONPATH=src${PYTHONPATH:+:$PYTHONPATH}
gpus=${AKA_GPUS:-$(nvidia-smi -L 2>/dev/null | wc -l)}
[ "$gpus" -ge 1 ] || { echo "no GPU found (nvidia-smi -L)" >&2; exit 2; }
mapfile -t ids < <(python3 - "$@" <<'PY'
import sys
from agentkernelarena.tasks.loader import discover_tasks, select_tasks
for task in select_tasks(sys.argv[1:] or ["all"], discover_tasks()):
    print(task.id)
PY
)
{
  echo "# date: $(date -u +%FT%TZ) tasks: ${#ids[@]} gpus: $gpus"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/# gpu: /'
  python3 -c 'import torch, triton, sys; print("# python", sys.version.split()[0], "torch", torch.__version__, "triton", triton.__version__)'
  git rev-parse --short HEAD 2>/dev/null | sed 's/^/# git: /'
} > "$out/machine.txt"
cat "$out/machine.txt"

worker() {  # worker GPU: every task whose index is GPU modulo the number of GPUs
  local gpu=$1 i id name
  for i in "${!ids[@]}"; do
    (( i % gpus == gpu )) || continue
    id=${ids[$i]}
    name=${id//\//__}
    [ -s "$out/$name.json" ] && continue
    local started=$SECONDS
    CUDA_VISIBLE_DEVICES=$gpu timeout "${AKA_TASK_TIMEOUT:-900}" \
      python3 -m agentkernelarena tasks check "$id" --platform cuda --json \
      > "$out/$name.json.part" 2> "$out/$name.log"
    local rc=$?
    # rc 0: sound, 1: problems found (both wrote a report); anything else: see the log.
    if [ $rc -le 1 ] && [ -s "$out/$name.json.part" ]; then
      mv "$out/$name.json.part" "$out/$name.json"
    fi
    echo "gpu $gpu: $id rc=$rc $((SECONDS - started))s"
  done
}
for ((g = 0; g < gpus; g++)); do worker "$g" & done
wait
python3 benchmarks/tasks_check_summary.py "$out" > "$out/summary.md"
tail -n 5 "$out/summary.md"
