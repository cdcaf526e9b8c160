// torch2cuda/moe_gating_topk: the router of a mixture-of-experts layer. For each token t,
// p = softmax(logits[t, :]) in float32; combine[t, e] = p[e] divided by the sum of the k
// largest p for the k experts e of the largest p (ties: the lower expert first), 0 for the
// other experts.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_moe_gating_topk(const void* logits, void* combine, int64_t T, int64_t E,
//                                      int64_t k, int dtype, void* stream);
// logits is a contiguous T x E row-major device array (0 float32, 1 float16, 2 bfloat16;
// E <= 1024), combine a contiguous T x E float32 array.
// Launch on `stream` (a cudaStream_t) and return cudaGetLastError() (0 when the launch went
// fine). This file must not include torch headers.
//
// This is a starting point that is correct and deliberately simple: one thread per token, which
// computes the softmax's maximum and sum, zeroes its row of combine, then finds the k experts
// one after another, each by a scan of the whole row for the largest logit ranked after the
// previous pick, and finally divides its row by the chosen probabilities' sum. The task is
// measured against PyTorch eager (baseline.py).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace {

__device__ __forceinline__ float to_float(float v) { return v; }
__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }

template <typename T>
__device__ __forceinline__ T from_float(float v);
template <>
__device__ __forceinline__ float from_float<float>(float v) { return v; }
template <>
__device__ __forceinline__ __half from_float<__half>(float v) { return __float2half_rn(v); }
template <>
__device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) {
  return __float2bfloat16_rn(v);
}

constexpr int kThreads = 128;

template <typename T>
__global__ void gate_rows(const T* __restrict__ logits, float* __restrict__ combine, int64_t Tn,
                          int64_t E, int64_t k) {
  const int64_t row = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= Tn) return;
  const T* in = logits + row * E;
  float* out = combine + row * E;
  float mx = -INFINITY;
  for (int64_t j = 0; j < E; ++j) mx = fmaxf(mx, to_float(in[j]));
  float sum = 0.f;
  for (int64_t j = 0; j < E; ++j) sum += expf(to_float(in[j]) - mx);
  for (int64_t j = 0; j < E; ++j) out[j] = 0.f;
  // Rank order: larger logit first, then the lower expert. Pick r is the first element of that
  // order after pick r - 1.
  float prev_v = INFINITY;
  int64_t prev_j = -1;
  float chosen = 0.f;
  for (int64_t r = 0; r < k; ++r) {
    float best_v = -INFINITY;
    int64_t best_j = -1;
    for (int64_t j = 0; j < E; ++j) {
      const float v = to_float(in[j]);
      const bool after_prev = v < prev_v || (v == prev_v && j > prev_j);
      if (after_prev && (best_j < 0 || v > best_v)) {
        best_v = v;
        best_j = j;
      }
    }
    const float p = expf(best_v - mx) / sum;
    out[best_j] = p;
    chosen += p;
    prev_v = best_v;
    prev_j = best_j;
  }
  for (int64_t j = 0; j < E; ++j) out[j] /= chosen;  // the zeros stay zeros
}

template <typename T>
int launch(const void* logits, void* combine, int64_t Tn, int64_t E, int64_t k,
           cudaStream_t stream) {
  const int64_t blocks = (Tn + kThreads - 1) / kThreads;
  gate_rows<T><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      static_cast<const T*>(logits), static_cast<float*>(combine), Tn, E, k);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace

extern "C" int aka_moe_gating_topk(const void* logits, void* combine, int64_t T, int64_t E,
                                   int64_t k, int dtype, void* stream) {
  if (T <= 0) return 0;
  if (k < 1 || k > E) return static_cast<int>(cudaErrorInvalidValue);
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(logits, combine, T, E, k, s);
    case 1: return launch<__half>(logits, combine, T, E, k, s);
    case 2: return launch<__nv_bfloat16>(logits, combine, T, E, k, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
