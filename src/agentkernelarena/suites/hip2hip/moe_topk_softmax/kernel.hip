// hip2hip/moe_topk_softmax: the gating step of a mixture-of-experts layer (vLLM's
// topk_softmax with renormalization). For every token t: p = softmax(logits[t, :]) over the E
// experts (float32 arithmetic), the K largest p in descending order, ids[t, j] the expert of
// the j-th largest (int32) and weights[t, j] = p[ids[t, j]] / (sum of the K selected p)
// (float32). The logits of a row are distinct (no ties).
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_moe_topk_softmax(const void* logits, void* weights, void* ids,
//                                       int64_t T, int64_t E, int64_t K, int dtype,
//                                       void* stream);
// logits is a contiguous T x E device array (0 float32, 1 float16, 2 bfloat16); weights a
// T x K float32 and ids a T x K int32 array; 1 <= K <= min(E, 32), E <= 1024. Launch on
// `stream` (a hipStream_t) and return hipGetLastError(). This file must not include torch
// headers. It runs on AMD GPUs (64-lane wavefronts) and, translated to CUDA by the arena, on
// NVIDIA GPUs (32-lane warps).
//
// Baseline: one thread per token, reading its row from global memory in every pass: the
// maximum, the sum of exponentials, then K selection passes (each finds the largest
// probability below the previous pick) writing the probabilities, and a last pass over the
// K outputs to renormalize them.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;

struct alignas(2) bf16_t {
  unsigned short bits;
};

__device__ __forceinline__ float to_float(float v) { return v; }
__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_float(bf16_t v) {
  return __uint_as_float(static_cast<unsigned>(v.bits) << 16);
}

template <typename T>
__global__ void topk_softmax_per_token(const T* __restrict__ logits, float* __restrict__ weights,
                                       int* __restrict__ ids, int64_t num_tokens, int E, int K) {
  const int64_t t = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= num_tokens) return;
  const T* row = logits + t * E;
  float m = -INFINITY;
  for (int e = 0; e < E; ++e) m = fmaxf(m, to_float(row[e]));
  float sum = 0.f;
  for (int e = 0; e < E; ++e) sum += expf(to_float(row[e]) - m);

  float* w = weights + t * K;
  int* id = ids + t * K;
  float prev_v = INFINITY;
  int prev_i = -1;
  float picked = 0.f;
  for (int j = 0; j < K; ++j) {
    // The largest (value, -index) pair ordered after the previous pick.
    float best_v = -INFINITY;
    int best_i = -1;
    for (int e = 0; e < E; ++e) {
      const float v = to_float(row[e]);
      const bool after = v < prev_v || (v == prev_v && e > prev_i);
      if (after && (best_i < 0 || v > best_v)) {
        best_v = v;
        best_i = e;
      }
    }
    const float p = expf(best_v - m) / sum;
    w[j] = p;
    id[j] = best_i;
    picked += p;
    prev_v = best_v;
    prev_i = best_i;
  }
  for (int j = 0; j < K; ++j) w[j] = w[j] / picked;
}

template <typename T>
int launch(const void* logits, void* weights, void* ids, int64_t num_tokens, int E, int K,
           hipStream_t stream) {
  const int64_t blocks = (num_tokens + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(topk_softmax_per_token<T>, dim3(static_cast<unsigned>(blocks)),
                     dim3(kThreads), 0, stream, static_cast<const T*>(logits),
                     static_cast<float*>(weights), static_cast<int*>(ids), num_tokens, E, K);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_moe_topk_softmax(const void* logits, void* weights, void* ids, int64_t T,
                                    int64_t E, int64_t K, int dtype, void* stream) {
  if (T <= 0) return 0;
  if (E < 1 || E > 1024 || K < 1 || K > E || K > 32) return static_cast<int>(hipErrorInvalidValue);
  hipStream_t s = static_cast<hipStream_t>(stream);
  const int e = static_cast<int>(E), k = static_cast<int>(K);
  switch (dtype) {
    case 0: return launch<float>(logits, weights, ids, T, e, k, s);
    case 1: return launch<__half>(logits, weights, ids, T, e, k, s);
    case 2: return launch<bf16_t>(logits, weights, ids, T, e, k, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
