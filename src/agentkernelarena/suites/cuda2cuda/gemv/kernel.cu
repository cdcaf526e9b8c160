// cuda2cuda/gemv: y[m] = sum_k A[m, k] * x[k], accumulated in float32.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_gemv(const void* a, const void* x, void* y, int64_t M, int64_t K,
//                           int dtype, void* stream);
// a is a contiguous row-major M x K device matrix, x a vector of K, y a vector of M, all of
// one dtype (0 float32, 1 float16, 2 bfloat16); y[m] is rounded to that dtype once. Launch on
// `stream` (a cudaStream_t) and return cudaGetLastError() (0 when the launch went fine).
// M, K >= 1 when the launcher is called. This file must not include torch headers.
//
// Baseline: one thread per row, which walks its row of A element by element.
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
__global__ void gemv_rows(const T* __restrict__ a, const T* __restrict__ x, T* __restrict__ y,
                          int64_t M, int64_t K) {
  const int64_t row = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= M) return;
  const T* a_row = a + row * K;
  float acc = 0.f;
  for (int64_t k = 0; k < K; ++k) acc += to_float(a_row[k]) * to_float(x[k]);
  y[row] = from_float<T>(acc);
}

template <typename T>
int launch(const void* a, const void* x, void* y, int64_t M, int64_t K, cudaStream_t stream) {
  const int64_t blocks = (M + kThreads - 1) / kThreads;
  gemv_rows<T><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      static_cast<const T*>(a), static_cast<const T*>(x), static_cast<T*>(y), M, K);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace

extern "C" int aka_gemv(const void* a, const void* x, void* y, int64_t M, int64_t K, int dtype,
                        void* stream) {
  if (M <= 0 || K <= 0) return 0;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(a, x, y, M, K, s);
    case 1: return launch<__half>(a, x, y, M, K, s);
    case 2: return launch<__nv_bfloat16>(a, x, y, M, K, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
