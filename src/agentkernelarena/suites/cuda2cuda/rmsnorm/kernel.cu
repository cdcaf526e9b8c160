// cuda2cuda/rmsnorm: y[m, n] = x[m, n] / sqrt(mean(x[m, :]^2) + eps) * w[n], in float32
// arithmetic, rounded once to the dtype of x.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_rmsnorm(const void* x, const void* w, void* y, int64_t M, int64_t N,
//                              float eps, int dtype, void* stream);
// x and y are contiguous M x N row-major device arrays, w a vector of N, all of one dtype
// (0 float32, 1 float16, 2 bfloat16); launch on `stream` (a cudaStream_t) and return
// cudaGetLastError(). This file must not include torch headers.
//
// Baseline: one block of 256 threads per row, two passes over the row (sum of squares, then
// scale and write), scalar loads, the block-wide sum a shared-memory tree.
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
__global__ void rmsnorm_rows(const T* __restrict__ x, const T* __restrict__ w,
                             T* __restrict__ y, int64_t N, float eps) {
  __shared__ float red[kThreads];
  const int tid = threadIdx.x;
  const T* row_in = x + static_cast<int64_t>(blockIdx.x) * N;
  T* row_out = y + static_cast<int64_t>(blockIdx.x) * N;

  // Pass 1: the sum of squares, reduced over the block.
  float sq = 0.f;
  for (int64_t j = tid; j < N; j += blockDim.x) {
    const float v = to_float(row_in[j]);
    sq += v * v;
  }
  red[tid] = sq;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
  const float inv = rsqrtf(red[0] / static_cast<float>(N) + eps);

  // Pass 2: scale and write.
  for (int64_t j = tid; j < N; j += blockDim.x) {
    row_out[j] = from_float<T>(to_float(row_in[j]) * inv * to_float(w[j]));
  }
}

template <typename T>
int launch(const void* x, const void* w, void* y, int64_t M, int64_t N, float eps,
           cudaStream_t stream) {
  rmsnorm_rows<T><<<static_cast<unsigned>(M), kThreads, 0, stream>>>(
      static_cast<const T*>(x), static_cast<const T*>(w), static_cast<T*>(y), N, eps);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace

extern "C" int aka_rmsnorm(const void* x, const void* w, void* y, int64_t M, int64_t N,
                           float eps, int dtype, void* stream) {
  if (M <= 0 || N <= 0) return 0;
  if (M > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, w, y, M, N, eps, s);
    case 1: return launch<__half>(x, w, y, M, N, eps, s);
    case 2: return launch<__nv_bfloat16>(x, w, y, M, N, eps, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
