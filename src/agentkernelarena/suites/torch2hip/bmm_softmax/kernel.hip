// torch2hip/bmm_softmax: y[i, m, :] = softmax over n of s[n], s[n] = sum_k a[i, m, k] *
// b[i, n, k], in float32.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_bmm_softmax(const void* a, const void* b, void* y, int64_t B, int64_t M,
//                                  int64_t N, int64_t K, int dtype, void* stream);
// a is a contiguous B x M x K device array, b B x N x K, y B x M x N, one dtype (0 float32,
// 1 float16, 2 bfloat16); launch on `stream` (a hipStream_t) and return hipGetLastError().
// This file must not include torch headers. It runs on AMD GPUs (64-lane wavefronts) and,
// translated to CUDA by the arena, on NVIDIA GPUs (32-lane warps).
//
// This is a starting point that is correct and deliberately simple: one thread per output row
// (i, m), which computes its N dot products three times (row maximum, sum of exponentials,
// outputs) straight from global memory. The task is measured against PyTorch eager
// (baseline.py).
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

struct alignas(2) bf16_t {
  unsigned short bits;
};

__device__ __forceinline__ float to_float(float v) { return v; }
__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_float(bf16_t v) {
  return __uint_as_float(static_cast<unsigned>(v.bits) << 16);
}

template <typename T>
__device__ __forceinline__ T from_float(float v);
template <>
__device__ __forceinline__ float from_float<float>(float v) { return v; }
template <>
__device__ __forceinline__ __half from_float<__half>(float v) { return __float2half_rn(v); }
template <>
__device__ __forceinline__ bf16_t from_float<bf16_t>(float v) {
  unsigned u = __float_as_uint(v);
  if ((u & 0x7fffffffu) > 0x7f800000u) return bf16_t{static_cast<unsigned short>((u >> 16) | 0x40)};
  u += 0x7fffu + ((u >> 16) & 1u);  // round to nearest even
  return bf16_t{static_cast<unsigned short>(u >> 16)};
}

constexpr int kThreads = 128;

template <typename T>
__device__ float dot(const T* __restrict__ a, const T* __restrict__ b, int64_t K) {
  float s = 0.f;
  for (int64_t k = 0; k < K; ++k) s += to_float(a[k]) * to_float(b[k]);
  return s;
}

template <typename T>
__global__ void bmm_softmax_simple(const T* __restrict__ a, const T* __restrict__ b,
                                   T* __restrict__ y, int64_t B, int64_t M, int64_t N,
                                   int64_t K) {
  const int64_t row = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= B * M) return;
  const int64_t i = row / M;
  const T* ar = a + row * K;
  const T* bb = b + i * N * K;
  float mx = -INFINITY;
  for (int64_t n = 0; n < N; ++n) mx = fmaxf(mx, dot(ar, bb + n * K, K));
  float sum = 0.f;
  for (int64_t n = 0; n < N; ++n) sum += expf(dot(ar, bb + n * K, K) - mx);
  const float inv = 1.f / sum;
  T* yr = y + row * N;
  for (int64_t n = 0; n < N; ++n) yr[n] = from_float<T>(expf(dot(ar, bb + n * K, K) - mx) * inv);
}

template <typename T>
int launch(const void* a, const void* b, void* y, int64_t B, int64_t M, int64_t N, int64_t K,
           hipStream_t stream) {
  const int64_t blocks = (B * M + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(bmm_softmax_simple<T>, dim3(static_cast<unsigned>(blocks)), dim3(kThreads),
                     0, stream, static_cast<const T*>(a), static_cast<const T*>(b),
                     static_cast<T*>(y), B, M, N, K);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_bmm_softmax(const void* a, const void* b, void* y, int64_t B, int64_t M,
                               int64_t N, int64_t K, int dtype, void* stream) {
  if (B <= 0 || M <= 0 || N <= 0 || K <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(a, b, y, B, M, N, K, s);
    case 1: return launch<__half>(a, b, y, B, M, N, K, s);
    case 2: return launch<bf16_t>(a, b, y, B, M, N, K, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
