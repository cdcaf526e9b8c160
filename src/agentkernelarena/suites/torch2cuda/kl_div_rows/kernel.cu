// torch2cuda/kl_div_rows: out[m] = KL(p || q) = sum_n p[n] * (log p[n] - log q[n]) with
// p = softmax(target[m, :]) and q = softmax(logits[m, :]), in float32.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_kl_div_rows(const void* logits, const void* target, void* out,
//                                  int64_t M, int64_t N, int dtype, void* stream);
// logits and target are contiguous M x N row-major device arrays, out a vector of M, all of
// one dtype (0 float32, 1 float16, 2 bfloat16); N >= 1. Launch on `stream` (a cudaStream_t)
// and return cudaGetLastError() (0 when the launch went fine). This file must not include
// torch headers.
//
// With s = target[m, :], t = logits[m, :], their maxima ms, mt and Zs = sum exp(s - ms),
// Zt = sum exp(t - mt): KL = sum exp(s - ms) (s - t) / Zs - (ms + log Zs) + (mt + log Zt).
// This is a starting point that is correct and deliberately simple: one thread per row, which
// reads its row twice (maxima, then the three sums). The task is measured against PyTorch
// eager (baseline.py).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;

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

template <typename T>
__global__ void kl_rows(const T* __restrict__ logits, const T* __restrict__ target,
                        T* __restrict__ out, int64_t M, int64_t N) {
  const int64_t row = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= M) return;
  const T* t = logits + row * N;
  const T* s = target + row * N;
  float mt = to_float(t[0]), ms = to_float(s[0]);
  for (int64_t j = 1; j < N; ++j) {
    mt = fmaxf(mt, to_float(t[j]));
    ms = fmaxf(ms, to_float(s[j]));
  }
  float zt = 0.f, zs = 0.f, cross = 0.f;
  for (int64_t j = 0; j < N; ++j) {
    const float vt = to_float(t[j]);
    const float vs = to_float(s[j]);
    const float e = expf(vs - ms);
    zs += e;
    cross += e * (vs - vt);
    zt += expf(vt - mt);
  }
  out[row] = from_float<T>(cross / zs - (ms + logf(zs)) + (mt + logf(zt)));
}

template <typename T>
int launch(const void* logits, const void* target, void* out, int64_t M, int64_t N,
           cudaStream_t stream) {
  const int64_t blocks = (M + kThreads - 1) / kThreads;
  kl_rows<T><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      static_cast<const T*>(logits), static_cast<const T*>(target), static_cast<T*>(out), M, N);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace

extern "C" int aka_kl_div_rows(const void* logits, const void* target, void* out, int64_t M,
                               int64_t N, int dtype, void* stream) {
  if (M <= 0 || N <= 0) return 0;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(logits, target, out, M, N, s);
    case 1: return launch<__half>(logits, target, out, M, N, s);
    case 2: return launch<__nv_bfloat16>(logits, target, out, M, N, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
