// hip2hip/layernorm: y[m, :] = (x[m, :] - mean_m) / sqrt(var_m + eps) * w + b, the statistics
// (mean and biased variance of row m) computed in float32.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_layernorm_forward(const void* x, const void* w, const void* b, void* y,
//                                        int64_t M, int64_t N, float eps, int dtype,
//                                        void* stream);
// x and y are contiguous M x N row-major device arrays, w and b vectors of N; all share one
// dtype (0 float32, 1 float16, 2 bfloat16); launch on `stream` (a hipStream_t) and return
// hipGetLastError(). This file must not include torch headers. It runs on AMD GPUs (64-lane
// wavefronts) and, translated to CUDA by the arena, on NVIDIA GPUs (32-lane warps): take the
// wavefront size from warpSize / hipDeviceAttributeWarpSize, never a constant.
//
// Baseline: one block of 256 threads per row, element by element. The row is read three
// times (the mean, the variance around it, the output) and each statistic is a shared-memory
// tree reduction, a barrier per level.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;

// bfloat16 as raw bits: portable across ROCm versions and the translation to CUDA.
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
__device__ __forceinline__ __half from_float<__half>(float v) { return __float2half(v); }
template <>
__device__ __forceinline__ bf16_t from_float<bf16_t>(float v) {
  unsigned u = __float_as_uint(v);
  if ((u & 0x7fffffffu) > 0x7f800000u) return bf16_t{static_cast<unsigned short>((u >> 16) | 0x40)};
  u += 0x7fffu + ((u >> 16) & 1u);  // round to nearest even
  return bf16_t{static_cast<unsigned short>(u >> 16)};
}

// Sum of v over the block, by a shared-memory tree; every thread gets the result.
__device__ float block_sum(float v, float* red) {
  const int tid = threadIdx.x;
  red[tid] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
  const float total = red[0];
  __syncthreads();  // red is reused by the next reduction
  return total;
}

template <typename T>
__global__ void layernorm_rows(const T* __restrict__ x, const T* __restrict__ w,
                               const T* __restrict__ b, T* __restrict__ y, int64_t N,
                               float eps) {
  __shared__ float red[kThreads];
  const int64_t offset = static_cast<int64_t>(blockIdx.x) * N;
  const T* row = x + offset;

  float sum = 0.f;
  for (int64_t j = threadIdx.x; j < N; j += blockDim.x) sum += to_float(row[j]);
  const float mean = block_sum(sum, red) / static_cast<float>(N);

  float sq = 0.f;
  for (int64_t j = threadIdx.x; j < N; j += blockDim.x) {
    const float d = to_float(row[j]) - mean;
    sq += d * d;
  }
  const float rstd = rsqrtf(block_sum(sq, red) / static_cast<float>(N) + eps);

  for (int64_t j = threadIdx.x; j < N; j += blockDim.x) {
    const float v = (to_float(row[j]) - mean) * rstd;
    y[offset + j] = from_float<T>(v * to_float(w[j]) + to_float(b[j]));
  }
}

template <typename T>
int launch(const void* x, const void* w, const void* b, void* y, int64_t M, int64_t N,
           float eps, hipStream_t stream) {
  hipLaunchKernelGGL(layernorm_rows<T>, dim3(static_cast<unsigned>(M)), dim3(kThreads), 0,
                     stream, static_cast<const T*>(x), static_cast<const T*>(w),
                     static_cast<const T*>(b), static_cast<T*>(y), N, eps);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_layernorm_forward(const void* x, const void* w, const void* b, void* y,
                                     int64_t M, int64_t N, float eps, int dtype, void* stream) {
  if (M <= 0 || N <= 0) return 0;
  if (M > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, w, b, y, M, N, eps, s);
    case 1: return launch<__half>(x, w, b, y, M, N, eps, s);
    case 2: return launch<bf16_t>(x, w, b, y, M, N, eps, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
