#!/usr/bin/env bash
# The sample report of docs/sample-report/: the oracle and noop agents on a few bundled tasks,
# on this machine's GPU, then every report format (HTML report, compare, leaderboard) and a
# screenshot of the HTML report (headless Chromium, when installed).
# Usage: benchmarks/sample_report.sh [OUT_DIR]   (default docs/sample-report)
#   AKA_SAMPLE_TASKS   task selectors, space-separated (default: triton2triton/* cuda2cuda/*)
#   AKA_SAMPLE_ATTEMPTS attempts per task (default 1)
# ~5 minutes on one H200 with the defaults (42 trials of ~7 s).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/sample-report}
run=${AKA_SAMPLE_RUN:-/tmp/aka-sample-run}
mkdir -p "$out"
aka() { PYTHONPATH=src${PYTHONPATH:+:$PYTHONPATH} python3 -m agentkernelarena "$@"; }
set -f  # task selectors are globs for the arena, not for the shell
read -ra selectors <<< "${AKA_SAMPLE_TASKS:-triton2triton/* cuda2cuda/*}"
config="$out/run.yaml"
{
  echo "agents: [oracle, noop]"
  echo "tasks: [$(printf "'%s', " "${selectors[@]}" | sed 's/, $//')]"
  echo "attempts: ${AKA_SAMPLE_ATTEMPTS:-1}"
  echo "label: sample-oracle-noop"
  echo "seed: 1"
} > "$config"
set +f
if [ -d "$run" ]; then aka run --resume --out "$run" --progress plain; else
  aka run -c "$config" --out "$run" --progress plain; fi
aka report "$run" --format html -o "$out/report.html"
aka report "$run" --format md -o "$out/report.md"
aka compare "$run" "$run" --agent-a noop --agent-b oracle --format md -o "$out/compare.md"
aka leaderboard "$run" --format md -o "$out/leaderboard.md"
for browser in chromium chromium-browser google-chrome; do
  if command -v "$browser" >/dev/null; then
    "$browser" --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
      --window-size=1300,1800 --screenshot="$out/report.png" "file://$(realpath "$out/report.html")" \
      2>/dev/null
    break
  fi
done
echo "sample report in $out (run folder $run)"
