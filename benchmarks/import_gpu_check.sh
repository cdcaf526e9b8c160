#!/usr/bin/env bash
# `aka tasks new` and `aka tasks import kernelbench` on a GPU: the scaffolds of every category and
# the KernelBench test problems imported as torch2cuda, torch2hip (translated on NVIDIA) and
# torch2triton, checked at their GPU sizes (the baseline in a skeleton's place, the skeleton
# built and run), then the Triton solution of the ReLU problem evaluated with timing.
# Usage: benchmarks/import_gpu_check.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: benchmarks/import_gpu_check.sh OUT_DIR}
mkdir -p "$out"
export PYTHONPATH=src${PYTHONPATH:+:$PYTHONPATH}
aka() { python3 -m agentkernelarena "$@"; }
work=$(mktemp -d)
{
  echo "# date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/# gpu: /'
  for c in triton2triton torch2triton instruction2triton cuda2cuda torch2cuda hip2hip torch2hip; do
    aka tasks new "$c/my_op" --out "$work/new" >/dev/null
  done
  aka tasks check '*/my_op' --tasks-dir "$work/new"
  for c in torch2cuda torch2hip torch2triton; do
    aka tasks import kernelbench tests/fixtures/kernelbench --out "$work/kb" --category "$c"
    aka tasks check "$c/kb_*" --tasks-dir "$work/kb"
  done
  aka eval torch2triton/kb_19_relu --solution tests/fixtures/kernelbench/solutions/kb_19_relu \
    --tasks-dir "$work/kb" --json > "$out/eval_kb_19_relu.json"
  python3 -c 'import json; r = json.load(open("'"$out"'/eval_kb_19_relu.json")); print("eval kb_19_relu:", r["verdict"], "speedup", r["speedup"], "held-out", r["held_out"].get("correct"), r["reasons"][:3])'
} 2>&1 | tee "$out/import_gpu_check.log"
rm -rf "$work"
