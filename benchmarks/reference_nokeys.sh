#!/usr/bin/env bash
# The reference experiment's keyless variant on a GPU: `aka run -c reference-experiment-nokeys`
# (noop, tune, oracle on @arena-44, 3600 s, 3 iterations), then its leaderboard beside the
# published figures (docs/reference-experiment.md).
#
# Usage: benchmarks/reference_nokeys.sh OUT_DIR
#   writes OUT_DIR/run/ (the run folder), OUT_DIR/leaderboard.md (`aka leaderboard
#   --published`), OUT_DIR/report.md and OUT_DIR/reference_nokeys.log. Run it again with the
#   same OUT_DIR to resume: the shipped config is used unchanged (its identity is the
#   experiment's), so a run longer than one device command is finished by calling it again.
# Settings (environment): REF_TASKS [@arena-44; e.g. 'triton2triton/*' for the Triton tasks
#   only, which changes the run's identity], REF_CONCURRENCY [every trial at once: agents wait,
#   evaluations queue one per GPU], RUN_TIMEOUT [570 s, under a device command's 10 minutes],
#   REF_EVAL_LANES [1; N: N evaluations in flight per GPU, timed rounds alone (--eval-lanes),
#   a scheduling setting that a resumed run may change].
# Without bubblewrap on the machine: run benchmarks/carry_bwrap.sh here and carry .gpu-tools.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: benchmarks/reference_nokeys.sh OUT_DIR}
tasks=${REF_TASKS:-@arena-44}
budget=${RUN_TIMEOUT:-570}
[ -x .gpu-tools/bin/bwrap ] && export PATH=$PWD/.gpu-tools/bin:$PATH
export PYTHONPATH=$PWD/src${PYTHONPATH:+:$PYTHONPATH}
mkdir -p "$out"
run=$out/run
trials=$(python3 -c "
from agentkernelarena.tasks.loader import discover_tasks, select_tasks
print(3 * len(select_tasks(['$tasks'], discover_tasks())))")
concurrency=${REF_CONCURRENCY:-$trials}
lanes=${REF_EVAL_LANES:-1}
{
  echo "# date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/# gpu: /'
  echo "# arena: $(git rev-parse --short HEAD 2>/dev/null) tasks: $tasks trials: $trials lanes: $lanes"
  resume=()
  [ -f "$run/manifest.json" ] && resume=(--resume)
  timeout --foreground -k 20 "$budget" \
    python3 -m agentkernelarena run -c reference-experiment-nokeys --tasks "$tasks" \
    --seed 1 --out "$run" --concurrency "$concurrency" --eval-lanes "$lanes" "${resume[@]}" \
    --progress plain
  echo "# aka run exit status: $? (124: the timeout; call again to resume)"
} 2>&1 | tee -a "$out/reference_nokeys.log"
python3 -m agentkernelarena leaderboard "$run" --published --format md > "$out/leaderboard.md"
python3 -m agentkernelarena report "$run" --format md > "$out/report.md"
