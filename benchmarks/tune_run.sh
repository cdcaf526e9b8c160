#!/usr/bin/env bash
# The `tune` baseline over the Triton tasks, beside the shipped solutions (`oracle`), on a GPU:
# how much of a task's speedup a plain search over block sizes, num_warps and num_stages finds,
# and how much room the shipped solution shows beyond it.
#
# Usage: benchmarks/tune_run.sh OUT_DIR
#   writes OUT_DIR/run/ (the aka run folder), OUT_DIR/report.md (aka report), and
#   OUT_DIR/tune_vs_solution.{md,json} (benchmarks/tune_summary.py: per task, the tuned speedup
#   beside the solution's). Run it again with the same OUT_DIR to resume an unfinished run.
# Settings (environment): TUNE_TASKS ['triton2triton/*'], TUNE_MAX_CHECKS [24] and
#   TUNE_TIME_LIMIT [300 s per trial] (the agent's budget), TUNE_SEED [0],
#   RUN_TIMEOUT [570 s, under a device command's 10 minutes].
# Every trial starts at once (concurrency = trials); their checks and final evaluations queue
# for the GPUs, one evaluation per GPU at a time, so on 8 GPUs the whole suite fits in one
# command, and on one GPU each trial gets about an eighth of the checks (or split TUNE_TASKS).
# Without bubblewrap on the machine: run benchmarks/carry_bwrap.sh here and carry .gpu-tools.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: benchmarks/tune_run.sh OUT_DIR}
tasks=${TUNE_TASKS:-triton2triton/*}
checks=${TUNE_MAX_CHECKS:-24}
limit=${TUNE_TIME_LIMIT:-300}
seed=${TUNE_SEED:-0}
budget=${RUN_TIMEOUT:-570}
[ -x .gpu-tools/bin/bwrap ] && export PATH=$PWD/.gpu-tools/bin:$PATH
export PYTHONPATH=$PWD/src${PYTHONPATH:+:$PYTHONPATH}
mkdir -p "$out"
run=$out/run
trials=$(python3 -c "
from agentkernelarena.tasks.loader import discover_tasks, select_tasks
print(2 * len(select_tasks(['$tasks'], discover_tasks())))")
cat > "$out/run.yaml" <<EOF
label: tune-vs-solution
agents:
  - {name: tune, args: {max_checks: $checks, seed: $seed}}
  - oracle
tasks: ["$tasks"]
attempts: 1
max_iterations: 1
time_limit_s: $limit
seed: 1
concurrency: $trials
EOF
{
  echo "# date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/# gpu: /'
  echo "# arena: $(git rev-parse --short HEAD 2>/dev/null) tasks: $tasks trials: $trials" \
       "max_checks: $checks time_limit_s: $limit seed: $seed"
  resume=()
  [ -f "$run/manifest.json" ] && resume=(--resume)
  # Every trial runs at once, and each one's agent stops at TUNE_TIME_LIMIT: the run ends by
  # itself in about that plus the final evaluations. The timeout is only a safety net (a trial
  # it cuts is run again from scratch by the next call).
  timeout --foreground -k 20 "$budget" \
    python3 -m agentkernelarena run -c "$out/run.yaml" --out "$run" "${resume[@]}" \
    --progress plain
  echo "# aka run exit status: $?"
} 2>&1 | tee -a "$out/tune_run.log"
python3 -m agentkernelarena report "$run" --format md > "$out/report.md"
python3 benchmarks/tune_summary.py "$run" --out "$out"
