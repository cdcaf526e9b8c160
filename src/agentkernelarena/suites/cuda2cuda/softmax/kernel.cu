// cuda2cuda/softmax: row-wise softmax, y[m, :] = exp(x[m, :] - max) / sum(exp(x[m, :] - max)).
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_softmax_forward(const void* x, void* y, int64_t M, int64_t N,
//                                      int dtype, void* stream);
// x and y are contiguous M x N row-major device arrays of the same dtype (0 float32,
// 1 float16, 2 bfloat16); launch on `stream` (a cudaStream_t) and return cudaGetLastError()
// (0 when the launch went fine). This file must not include torch headers.
//
// Baseline: one block of 256 threads per row, three passes over the row (max, sum, write),
// each block-wide reduction a shared-memory tree with a barrier per level.
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
__global__ void softmax_rows(const T* __restrict__ x, T* __restrict__ y, int64_t N) {
  __shared__ float red[kThreads];
  const int tid = threadIdx.x;
  const T* row_in = x + static_cast<int64_t>(blockIdx.x) * N;
  T* row_out = y + static_cast<int64_t>(blockIdx.x) * N;

  // Pass 1: the row's maximum.
  float m = -INFINITY;
  for (int64_t j = tid; j < N; j += blockDim.x) m = fmaxf(m, to_float(row_in[j]));
  red[tid] = m;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] = fmaxf(red[tid], red[tid + s]);
    __syncthreads();
  }
  const float row_max = red[0];
  __syncthreads();

  // Pass 2: the sum of exponentials.
  float sum = 0.f;
  for (int64_t j = tid; j < N; j += blockDim.x) sum += expf(to_float(row_in[j]) - row_max);
  red[tid] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
  const float row_sum = red[0];

  // Pass 3: normalize.
  for (int64_t j = tid; j < N; j += blockDim.x) {
    row_out[j] = from_float<T>(expf(to_float(row_in[j]) - row_max) / row_sum);
  }
}

template <typename T>
int launch(const void* x, void* y, int64_t M, int64_t N, cudaStream_t stream) {
  softmax_rows<T><<<static_cast<unsigned>(M), kThreads, 0, stream>>>(
      static_cast<const T*>(x), static_cast<T*>(y), N);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace

extern "C" int aka_softmax_forward(const void* x, void* y, int64_t M, int64_t N, int dtype,
                                   void* stream) {
  if (M <= 0 || N <= 0) return 0;
  if (M > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, y, M, N, s);
    case 1: return launch<__half>(x, y, M, N, s);
    case 2: return launch<__nv_bfloat16>(x, y, M, N, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
