// hip2hip/group_norm: GroupNorm forward with affine weight and bias on NCHW activations, as
// torch.nn.functional.group_norm(x, G, weight, bias, eps=1e-5): the C channels are split into G
// groups of C / G consecutive channels; for every sample n and group g, mean and biased
// variance over the group's (C / G) * H * W elements in float32, then
// y = (x - mean) / sqrt(var + eps) * weight[c] + bias[c], stored in x's dtype.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_group_norm(const void* x, const void* weight, const void* bias, void* y,
//                                 int64_t N, int64_t C, int64_t HW, int64_t G, int dtype,
//                                 void* stream);
// x and y are contiguous N x C x HW device arrays, weight and bias C, all of one dtype
// (0 float32, 1 float16, 2 bfloat16 as raw bits); C is a multiple of G. Launch on `stream` (a
// hipStream_t) and return hipGetLastError(). This file must not include torch headers. It runs
// on AMD GPUs (64-lane wavefronts) and, translated to CUDA by the arena, on NVIDIA GPUs
// (32-lane warps): take the wavefront size from warpSize / hipDeviceAttributeWarpSize.
//
// Baseline: one block of 256 threads per (sample, group), element by element; the group is
// read three times (mean, variance, output), each reduction a shared-memory tree.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;
constexpr float kEps = 1e-5f;

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

__device__ float block_sum(float v, float* red) {
  const int tid = threadIdx.x;
  red[tid] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
  const float total = red[0];
  __syncthreads();
  return total;
}

template <typename T>
__global__ void group_norm_kernel(const T* __restrict__ x, const T* __restrict__ weight,
                                  const T* __restrict__ bias, T* __restrict__ y, int64_t C,
                                  int64_t HW, int64_t G) {
  __shared__ float red[kThreads];
  const int64_t ng = blockIdx.x;  // n * G + g
  const int64_t cpg = C / G;
  const int64_t size = cpg * HW;
  const int64_t start = ng * size;  // the group's channels are consecutive
  const int64_t c0 = (ng % G) * cpg;

  float sum = 0.f;
  for (int64_t i = threadIdx.x; i < size; i += blockDim.x) sum += to_float(x[start + i]);
  const float mean = block_sum(sum, red) / static_cast<float>(size);

  float sq = 0.f;
  for (int64_t i = threadIdx.x; i < size; i += blockDim.x) {
    const float d = to_float(x[start + i]) - mean;
    sq += d * d;
  }
  const float var = block_sum(sq, red) / static_cast<float>(size);
  const float rstd = 1.f / sqrtf(var + kEps);

  for (int64_t i = threadIdx.x; i < size; i += blockDim.x) {
    const int64_t c = c0 + i / HW;
    const float v = (to_float(x[start + i]) - mean) * rstd;
    y[start + i] = from_float<T>(v * to_float(weight[c]) + to_float(bias[c]));
  }
}

template <typename T>
int launch(const void* x, const void* w, const void* b, void* y, int64_t N, int64_t C,
           int64_t HW, int64_t G, hipStream_t stream) {
  hipLaunchKernelGGL(group_norm_kernel<T>, dim3(static_cast<unsigned>(N * G)), dim3(kThreads), 0,
                     stream, static_cast<const T*>(x), static_cast<const T*>(w),
                     static_cast<const T*>(b), static_cast<T*>(y), C, HW, G);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_group_norm(const void* x, const void* weight, const void* bias, void* y,
                              int64_t N, int64_t C, int64_t HW, int64_t G, int dtype,
                              void* stream) {
  if (N <= 0 || C <= 0 || HW <= 0) return 0;
  if (G <= 0 || C % G != 0 || N * G > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, weight, bias, y, N, C, HW, G, s);
    case 1: return launch<__half>(x, weight, bias, y, N, C, HW, G, s);
    case 2: return launch<bf16_t>(x, weight, bias, y, N, C, HW, G, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
