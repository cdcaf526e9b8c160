// cuda2cuda/layernorm: y[m, n] = (x[m, n] - mean) / sqrt(var + eps) * w[n] + b[n], where mean
// and var (biased) are over the row x[m, :], in float32 arithmetic.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_layernorm_forward(const void* x, const void* w, const void* b, void* y,
//                                        int64_t M, int64_t N, float eps, int dtype,
//                                        void* stream);
// x and y are contiguous M x N row-major device arrays, w and b vectors of N, all of one dtype
// (0 float32, 1 float16, 2 bfloat16); launch on `stream` (a cudaStream_t) and return
// cudaGetLastError() (0 when the launch went fine). This file must not include torch headers.
//
// Baseline: one block of 256 threads per row, three passes over the row (mean, variance,
// write), scalar loads, each block-wide sum a shared-memory tree with a barrier per level.
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

// Sum of `v` over the block, returned to every thread. All threads must call it.
__device__ float block_sum(float v, float* red) {
  const int tid = threadIdx.x;
  red[tid] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
  const float total = red[0];
  __syncthreads();  // `red` is reused by the next call
  return total;
}

template <typename T>
__global__ void layernorm_rows(const T* __restrict__ x, const T* __restrict__ w,
                               const T* __restrict__ b, T* __restrict__ y, int64_t N, float eps) {
  __shared__ float red[kThreads];
  const T* row_in = x + static_cast<int64_t>(blockIdx.x) * N;
  T* row_out = y + static_cast<int64_t>(blockIdx.x) * N;

  // Pass 1: the mean.
  float sum = 0.f;
  for (int64_t j = threadIdx.x; j < N; j += blockDim.x) sum += to_float(row_in[j]);
  const float mean = block_sum(sum, red) / static_cast<float>(N);

  // Pass 2: the variance, from the centered values.
  float sq = 0.f;
  for (int64_t j = threadIdx.x; j < N; j += blockDim.x) {
    const float d = to_float(row_in[j]) - mean;
    sq += d * d;
  }
  const float rstd = rsqrtf(block_sum(sq, red) / static_cast<float>(N) + eps);

  // Pass 3: normalize, scale and shift.
  for (int64_t j = threadIdx.x; j < N; j += blockDim.x) {
    const float v = (to_float(row_in[j]) - mean) * rstd;
    row_out[j] = from_float<T>(v * to_float(w[j]) + to_float(b[j]));
  }
}

template <typename T>
int launch(const void* x, const void* w, const void* b, void* y, int64_t M, int64_t N, float eps,
           cudaStream_t stream) {
  layernorm_rows<T><<<static_cast<unsigned>(M), kThreads, 0, stream>>>(
      static_cast<const T*>(x), static_cast<const T*>(w), static_cast<const T*>(b),
      static_cast<T*>(y), N, eps);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace

extern "C" int aka_layernorm_forward(const void* x, const void* w, const void* b, void* y,
                                     int64_t M, int64_t N, float eps, int dtype, void* stream) {
  if (M <= 0 || N <= 0) return 0;
  if (M > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, w, b, y, M, N, eps, s);
    case 1: return launch<__half>(x, w, b, y, M, N, eps, s);
    case 2: return launch<__nv_bfloat16>(x, w, b, y, M, N, eps, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
