// torch2hip/attention_block_causal: causal attention for G = B * H heads,
// out[g, i, :] = sum_{j <= i} p[j] * v[g, j, :], p = softmax_{j <= i}(scale * q[g, i] . k[g, j]),
// in float32, float16 storage.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_attention_causal(const void* q, const void* k, const void* v, void* out,
//                                       int64_t G, int64_t S, int64_t D, float scale,
//                                       void* stream);
// q, k, v and out are G contiguous S x D row-major float16 device arrays (D <= 128); scale is
// 1 / sqrt(D); launch on `stream` (a hipStream_t) and return hipGetLastError(). This file must
// not include torch headers. It runs on AMD GPUs (64-lane wavefronts) and, translated to CUDA
// by the arena, on NVIDIA GPUs (32-lane warps).
//
// This is a starting point that is correct and deliberately simple: one thread per query row,
// walking keys 0..i with an online softmax (running maximum and sum, the output accumulated
// in a per-thread array), every load straight from global memory. The task is measured
// against PyTorch eager (baseline.py).
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 64;
constexpr int kMaxD = 128;

__global__ void attention_causal_simple(const __half* __restrict__ q,
                                        const __half* __restrict__ k,
                                        const __half* __restrict__ v, __half* __restrict__ out,
                                        int64_t G, int64_t S, int64_t D, float scale) {
  const int64_t row = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= G * S) return;
  const int64_t g = row / S;
  const int64_t i = row % S;
  const __half* qr = q + row * D;
  const __half* kg = k + g * S * D;
  const __half* vg = v + g * S * D;
  float acc[kMaxD];
  for (int64_t d = 0; d < D; ++d) acc[d] = 0.f;
  float mx = -INFINITY;
  float sum = 0.f;
  for (int64_t j = 0; j <= i; ++j) {
    float s = 0.f;
    for (int64_t d = 0; d < D; ++d) s += __half2float(qr[d]) * __half2float(kg[j * D + d]);
    s *= scale;
    const float nmx = fmaxf(mx, s);
    const float corr = expf(mx - nmx);  // 0 for the first key (mx = -inf)
    const float p = expf(s - nmx);
    sum = sum * corr + p;
    for (int64_t d = 0; d < D; ++d) acc[d] = acc[d] * corr + p * __half2float(vg[j * D + d]);
    mx = nmx;
  }
  const float inv = 1.f / sum;
  for (int64_t d = 0; d < D; ++d) out[row * D + d] = __float2half_rn(acc[d] * inv);
}

}  // namespace

extern "C" int aka_attention_causal(const void* q, const void* k, const void* v, void* out,
                                    int64_t G, int64_t S, int64_t D, float scale, void* stream) {
  if (G <= 0 || S <= 0 || D <= 0) return 0;
  if (D > kMaxD) return static_cast<int>(hipErrorInvalidValue);
  const int64_t blocks = (G * S + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(attention_causal_simple, dim3(static_cast<unsigned>(blocks)), dim3(kThreads),
                     0, static_cast<hipStream_t>(stream), static_cast<const __half*>(q),
                     static_cast<const __half*>(k), static_cast<const __half*>(v),
                     static_cast<__half*>(out), G, S, D, scale);
  return static_cast<int>(hipGetLastError());
}
