#!/usr/bin/env bash
# GPU validation of the triton2triton tasks added for issue 14 (branch issue-14-tasks).
# Usage: benchmarks/new_tasks_gpu.sh OUT_DIR            (all stages, all new tasks)
#        STAGES="times" TASKS="triton2triton/rope_qk" benchmarks/new_tasks_gpu.sh OUT_DIR
#        STAGES="times" SPLITS=visible benchmarks/new_tasks_gpu.sh OUT_DIR   (fixed visible only)
# Stages (each writes under OUT_DIR, run in this order). A device command is capped at 10 min:
# run one stage at a time, and split `check` and `suite` over TASKS subsets (about 40 s per
# task for check, 60-90 s per task for suite).
#   times  benchmarks/new_task_times.py: per fixed configuration the baseline and solution time
#          (do_bench), the speed-of-light bound, baseline/bound, the 0.05-20 ms check and the
#          solution's speedup, both checked against the reference (times/times.md), ~5 min
#   check  `aka tasks check ID --platform cuda` per task: baseline and solution correct on the
#          visible and held-out (incl. drawn) configurations, sanity checks (check.log)
#   suite  benchmarks/triton_suite.py: A/A and solution speedup through the evaluator
#          (suite/results.md)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: benchmarks/new_tasks_gpu.sh OUT_DIR}
mkdir -p "$out"
export PYTHONPATH=src${PYTHONPATH:+:$PYTHONPATH}
default_tasks=(
  triton2triton/swiglu_mlp triton2triton/attention_causal_gqa
  triton2triton/paged_decode_attention triton2triton/rope_qk triton2triton/moe_topk_gating
  triton2triton/w8a16_gemm triton2triton/cross_entropy_backward
  triton2triton/linear_decode_splitk triton2triton/softmax_backward
  triton2triton/layernorm_backward triton2triton/selective_scan triton2triton/causal_conv1d
  triton2triton/embedding_backward triton2triton/bmm triton2triton/moe_grouped_gemm
  triton2triton/merge_attn_states triton2triton/w8a8_gemm triton2triton/cross_entropy_smoothed
  triton2triton/bincount triton2triton/moe_align_sort triton2triton/min_p_sampling_probs
  triton2triton/attention_sliding_window triton2triton/topk_rows
  triton2triton/gelu_tanh_and_mul triton2triton/segment_mean
  triton2triton/fused_linear_cross_entropy
)
read -r -a tasks <<< "${TASKS:-${default_tasks[*]}}"
stages=${STAGES:-times check suite}
{
  echo "# date: $(date -u +%FT%TZ) git: $(git rev-parse --short HEAD 2>/dev/null)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/# gpu: /'
  python3 -c 'import torch, triton; print("# torch", torch.__version__, "triton", triton.__version__)'
} | tee "$out/machine.txt"
for stage in $stages; do
  case $stage in
    times) python3 benchmarks/new_task_times.py --out "$out/times" \
             --splits "${SPLITS:-visible,held_out}" "${tasks[@]}" \
             2>&1 | tee "$out/times.log" ;;
    check) for t in "${tasks[@]}"; do
             python3 -m agentkernelarena tasks check "$t" --platform cuda 2>&1
           done | tee "$out/check.log" ;;
    suite) python3 benchmarks/triton_suite.py --skip-unguarded --out "$out/suite" \
             --tasks "${tasks[@]}" 2>&1 | tee "$out/suite.log" ;;
    *) echo "unknown stage $stage" >&2; exit 2 ;;
  esac
done
