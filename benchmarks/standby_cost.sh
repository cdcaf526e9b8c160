#!/usr/bin/env bash
# What starting each evaluation's workers during the one before it saves (evaluate/standby.py):
# benchmarks/triton_suite.py over the same tasks twice, one process each, without and with
# --warm-start, on this machine's GPU. Compare `suite_wall_s` (every evaluation, start to end)
# and the A/A and solution ratios of the two results.json.
# Usage: benchmarks/standby_cost.sh OUT_DIR [TASK...]   (default: the @smoke set)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: benchmarks/standby_cost.sh OUT_DIR [TASK...]}
shift
tasks=("$@")
[ ${#tasks[@]} -eq 0 ] && tasks=(@smoke)
export PYTHONPATH=$PWD/src${PYTHONPATH:+:$PYTHONPATH}
[ -x .gpu-tools/bin/bwrap ] && export PATH=$PWD/.gpu-tools/bin:$PATH
mkdir -p "$out"
# A first pass fills the shared caches (the judge's baseline kernels), so that neither timed
# pass pays them; the candidate's cache is private to each evaluation in both.
python3 benchmarks/triton_suite.py --tasks "${tasks[@]}" --skip-unguarded --out "$out/0-fill" \
  > "$out/0-fill.log" 2>&1
python3 benchmarks/triton_suite.py --tasks "${tasks[@]}" --skip-unguarded --out "$out/1-cold" \
  2>&1 | tee "$out/1-cold.log"
python3 benchmarks/triton_suite.py --tasks "${tasks[@]}" --skip-unguarded --warm-start \
  --out "$out/2-warm" 2>&1 | tee "$out/2-warm.log"
python3 - "$out" <<'PY'
import json, sys
from pathlib import Path
out = Path(sys.argv[1])
for name in ("1-cold", "2-warm"):
    data = json.loads((out / name / "results.json").read_text())
    walls = [r[k]["wall_s"] for r in data["rows"] for k in ("aa", "solution") if r.get(k)]
    print(f"{name}: every evaluation {data['machine'].get('suite_wall_s')} s; timed "
          f"evaluations {sum(walls):.1f} s over {len(walls)}")
PY
