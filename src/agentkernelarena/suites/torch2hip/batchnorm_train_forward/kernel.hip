// torch2hip/batchnorm_train_forward: BatchNorm2d forward in training mode. Per channel c:
// mean and biased variance of x[:, c, :, :], y = (x - mean) / sqrt(var + eps) * w[c] + b[c],
// in float32.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_batchnorm_train_forward(const void* x, const void* w, const void* b,
//                                              void* y, void* workspace,
//                                              int64_t workspace_floats, int64_t N, int64_t C,
//                                              int64_t HW, float eps, int dtype, void* stream);
// x and y are contiguous N x C x HW device arrays (NCHW, HW = H * W), w and b have C values,
// one dtype (0 float32, 1 float16, 2 bfloat16); eps is 1e-5. `workspace` is a float32
// scratch array of workspace_floats = 64 * C + 1024 values, zeroed by the binding before every
// call, which the kernels may use (this version does not). Launch on `stream` (a hipStream_t)
// and return hipGetLastError(). This file must not include torch headers. It runs on AMD GPUs
// (64-lane wavefronts) and, translated to CUDA by the arena, on NVIDIA GPUs (32-lane warps).
//
// This is a starting point that is correct and deliberately simple: one block per channel,
// which walks the channel three times (mean, variance, output) with a shared-memory tree
// reduction. The task is measured against PyTorch eager (baseline.py).
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

constexpr int kThreads = 256;  // a power of two (the tree reduction halves it)

__device__ float block_sum(float v, float* red) {
  red[threadIdx.x] = v;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (static_cast<int>(threadIdx.x) < s) red[threadIdx.x] += red[threadIdx.x + s];
    __syncthreads();
  }
  const float total = red[0];
  __syncthreads();
  return total;
}

template <typename T>
__global__ void batchnorm_channel(const T* __restrict__ x, const T* __restrict__ w,
                                  const T* __restrict__ b, T* __restrict__ y, int64_t N,
                                  int64_t C, int64_t HW, float eps) {
  __shared__ float red[kThreads];
  const int64_t c = blockIdx.x;
  const int64_t count = N * HW;
  float s = 0.f;
  for (int64_t k = threadIdx.x; k < count; k += blockDim.x) {
    const int64_t n = k / HW, i = k % HW;
    s += to_float(x[(n * C + c) * HW + i]);
  }
  const float mean = block_sum(s, red) / static_cast<float>(count);
  float sq = 0.f;
  for (int64_t k = threadIdx.x; k < count; k += blockDim.x) {
    const int64_t n = k / HW, i = k % HW;
    const float d = to_float(x[(n * C + c) * HW + i]) - mean;
    sq += d * d;
  }
  const float var = block_sum(sq, red) / static_cast<float>(count);
  const float scale = to_float(w[c]) / sqrtf(var + eps);
  const float shift = to_float(b[c]);
  for (int64_t k = threadIdx.x; k < count; k += blockDim.x) {
    const int64_t n = k / HW, i = k % HW;
    const int64_t at = (n * C + c) * HW + i;
    y[at] = from_float<T>((to_float(x[at]) - mean) * scale + shift);
  }
}

template <typename T>
int launch(const void* x, const void* w, const void* b, void* y, int64_t N, int64_t C, int64_t HW,
           float eps, hipStream_t stream) {
  hipLaunchKernelGGL(batchnorm_channel<T>, dim3(static_cast<unsigned>(C)), dim3(kThreads), 0,
                     stream, static_cast<const T*>(x), static_cast<const T*>(w),
                     static_cast<const T*>(b), static_cast<T*>(y), N, C, HW, eps);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_batchnorm_train_forward(const void* x, const void* w, const void* b, void* y,
                                           void* workspace, int64_t workspace_floats, int64_t N,
                                           int64_t C, int64_t HW, float eps, int dtype,
                                           void* stream) {
  (void)workspace;
  (void)workspace_floats;
  if (N <= 0 || C <= 0 || HW <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, w, b, y, N, C, HW, eps, s);
    case 1: return launch<__half>(x, w, b, y, N, C, HW, eps, s);
    case 2: return launch<bf16_t>(x, w, b, y, N, C, HW, eps, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
