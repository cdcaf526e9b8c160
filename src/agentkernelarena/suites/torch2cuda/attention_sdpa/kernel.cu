// torch2cuda/attention_sdpa: o[bh, i, :] = softmax_j(scale * q[bh, i, :] . k[bh, j, :]) @
// v[bh, :, :], non-causal attention without a mask, in float32.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_attention(const void* q, const void* k, const void* v, void* o,
//                                int64_t BH, int64_t S, int64_t D, float scale, int dtype,
//                                void* stream);
// q, k, v and o are contiguous BH x S x D device arrays (BH = batch * heads) of one dtype
// (1 float16, 2 bfloat16), D <= 128, scale = 1 / sqrt(D); launch on `stream` (a cudaStream_t)
// and return cudaGetLastError() (0 when the launch went fine). This file must not include
// torch headers.
//
// This is a starting point that is correct and deliberately simple: one thread per query row,
// which streams over every key with an online softmax (running maximum and sum) and keeps its
// D output accumulators in a local array; q, k and v are read from global memory with CUDA
// cores (no tiling, no tensor cores). The task is measured against PyTorch eager (baseline.py:
// FlashAttention).
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
constexpr int kMaxD = 128;

template <typename T>
__global__ void attention_rows(const T* __restrict__ q, const T* __restrict__ k,
                               const T* __restrict__ v, T* __restrict__ o, int64_t BH,
                               int64_t S, int64_t D, float scale) {
  const int64_t row = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= BH * S) return;
  const int64_t bh = row / S;
  const T* qr = q + row * D;
  const T* kb = k + bh * S * D;
  const T* vb = v + bh * S * D;
  float qf[kMaxD], acc[kMaxD];
  for (int64_t d = 0; d < D; ++d) {
    qf[d] = to_float(qr[d]) * scale;
    acc[d] = 0.f;
  }
  float mx = -INFINITY, sum = 0.f;
  for (int64_t j = 0; j < S; ++j) {
    float s = 0.f;
    for (int64_t d = 0; d < D; ++d) s = fmaf(qf[d], to_float(kb[j * D + d]), s);
    if (s > mx) {  // rescale what was accumulated under the old maximum
      const float c = expf(mx - s);
      sum *= c;
      for (int64_t d = 0; d < D; ++d) acc[d] *= c;
      mx = s;
    }
    const float p = expf(s - mx);
    sum += p;
    for (int64_t d = 0; d < D; ++d) acc[d] = fmaf(p, to_float(vb[j * D + d]), acc[d]);
  }
  const float inv = 1.f / sum;
  for (int64_t d = 0; d < D; ++d) o[row * D + d] = from_float<T>(acc[d] * inv);
}

template <typename T>
int launch(const void* q, const void* k, const void* v, void* o, int64_t BH, int64_t S,
           int64_t D, float scale, cudaStream_t stream) {
  const int64_t blocks = (BH * S + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
  attention_rows<T><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      static_cast<const T*>(q), static_cast<const T*>(k), static_cast<const T*>(v),
      static_cast<T*>(o), BH, S, D, scale);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace

extern "C" int aka_attention(const void* q, const void* k, const void* v, void* o, int64_t BH,
                             int64_t S, int64_t D, float scale, int dtype, void* stream) {
  if (BH <= 0 || S <= 0) return 0;
  if (D <= 0 || D > kMaxD) return static_cast<int>(cudaErrorInvalidValue);
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
    case 1: return launch<__half>(q, k, v, o, BH, S, D, scale, s);
    case 2: return launch<__nv_bfloat16>(q, k, v, o, BH, S, D, scale, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
