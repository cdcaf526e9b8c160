// torch2cuda/group_norm: GroupNorm of NCHW x in G groups of C / G consecutive channels:
// y = (x - mean) * rsqrt(var + eps) * weight[c] + bias[c] with the mean and the biased variance
// of each (sample, group), in float32.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_group_norm(const void* x, const void* weight, const void* bias, void* y,
//                                 int64_t N, int64_t C, int64_t HW, int64_t G, float eps,
//                                 int dtype, void* stream);
// x and y are contiguous N x C x HW device arrays (HW = H * W), weight and bias vectors of C,
// all of one dtype (0 float32, 1 float16, 2 bfloat16); launch on `stream` (a cudaStream_t) and
// return cudaGetLastError() (0 when the launch went fine). This file must not include torch
// headers.
//
// This is a starting point that is correct and deliberately simple: one block per (sample,
// group), which walks the group's elements three times (sum, centred squares, output) with
// scalar loads and a shared-memory tree for each reduction. The task is measured against
// PyTorch eager (baseline.py).
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

constexpr int kThreads = 256;

// Sum over the block (kThreads threads); every thread gets the result.
__device__ float block_sum(float v, float* scratch) {
  scratch[threadIdx.x] = v;
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (static_cast<int>(threadIdx.x) < half) scratch[threadIdx.x] += scratch[threadIdx.x + half];
    __syncthreads();
  }
  const float r = scratch[0];
  __syncthreads();
  return r;
}

template <typename T>
__global__ void group_norm_groups(const T* __restrict__ x, const T* __restrict__ weight,
                                  const T* __restrict__ bias, T* __restrict__ y, int64_t C,
                                  int64_t HW, int64_t G, float eps) {
  __shared__ float scratch[kThreads];
  const int64_t group = blockIdx.x;  // n * G + g
  const int64_t cpg = C / G;
  const int64_t count = cpg * HW;
  const int64_t start = group * count;  // the group's channels are consecutive in memory
  const int64_t c0 = (group % G) * cpg;
  float s = 0.f;
  for (int64_t i = threadIdx.x; i < count; i += blockDim.x) s += to_float(x[start + i]);
  const float mean = block_sum(s, scratch) / static_cast<float>(count);
  float ss = 0.f;
  for (int64_t i = threadIdx.x; i < count; i += blockDim.x) {
    const float d = to_float(x[start + i]) - mean;
    ss += d * d;
  }
  const float rstd = rsqrtf(block_sum(ss, scratch) / static_cast<float>(count) + eps);
  for (int64_t i = threadIdx.x; i < count; i += blockDim.x) {
    const int64_t c = c0 + i / HW;
    const float v = (to_float(x[start + i]) - mean) * rstd;
    y[start + i] = from_float<T>(v * to_float(weight[c]) + to_float(bias[c]));
  }
}

template <typename T>
int launch(const void* x, const void* weight, const void* bias, void* y, int64_t N, int64_t C,
           int64_t HW, int64_t G, float eps, cudaStream_t stream) {
  const int64_t blocks = N * G;
  if (blocks > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
  group_norm_groups<T><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      static_cast<const T*>(x), static_cast<const T*>(weight), static_cast<const T*>(bias),
      static_cast<T*>(y), C, HW, G, eps);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace

extern "C" int aka_group_norm(const void* x, const void* weight, const void* bias, void* y,
                              int64_t N, int64_t C, int64_t HW, int64_t G, float eps, int dtype,
                              void* stream) {
  if (N <= 0 || C <= 0 || HW <= 0) return 0;
  if (G <= 0 || C % G != 0) return static_cast<int>(cudaErrorInvalidValue);
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, weight, bias, y, N, C, HW, G, eps, s);
    case 1: return launch<__half>(x, weight, bias, y, N, C, HW, G, eps, s);
    case 2: return launch<__nv_bfloat16>(x, weight, bias, y, N, C, HW, G, eps, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
