// torch2cuda/batchnorm_relu_inference: y[n, c, i] = max(0, (x[n, c, i] - mean[c]) /
// sqrt(var[c] + eps) * weight[c] + bias[c]), inference BatchNorm2d then ReLU, in float32.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_batchnorm_relu(const void* x, const void* weight, const void* bias,
//                                     const void* mean, const void* var, void* y, int64_t N,
//                                     int64_t C, int64_t HW, float eps, int dtype,
//                                     void* stream);
// x and y are contiguous N x C x HW device arrays of one dtype (0 float32, 1 float16,
// 2 bfloat16); weight, bias, mean and var are float32 vectors of C. Launch on `stream` (a
// cudaStream_t) and return cudaGetLastError() (0 when the launch went fine). This file must
// not include torch headers.
//
// This is a starting point that is correct and deliberately simple: one thread per element,
// which finds its channel from its flat index and reads the channel's four parameters. The
// task is measured against PyTorch eager (baseline.py).
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

template <typename T>
__global__ void batchnorm_relu_elements(const T* __restrict__ x, const float* __restrict__ weight,
                                        const float* __restrict__ bias,
                                        const float* __restrict__ mean,
                                        const float* __restrict__ var, T* __restrict__ y,
                                        int64_t total, int64_t C, int64_t HW, float eps) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= total) return;
  const int64_t c = (i / HW) % C;
  const float v = (to_float(x[i]) - mean[c]) * rsqrtf(var[c] + eps) * weight[c] + bias[c];
  y[i] = from_float<T>(fmaxf(v, 0.f));
}

template <typename T>
int launch(const void* x, const void* weight, const void* bias, const void* mean,
           const void* var, void* y, int64_t N, int64_t C, int64_t HW, float eps,
           cudaStream_t stream) {
  const int64_t total = N * C * HW;
  const int64_t blocks = (total + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
  batchnorm_relu_elements<T><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      static_cast<const T*>(x), static_cast<const float*>(weight),
      static_cast<const float*>(bias), static_cast<const float*>(mean),
      static_cast<const float*>(var), static_cast<T*>(y), total, C, HW, eps);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace

extern "C" int aka_batchnorm_relu(const void* x, const void* weight, const void* bias,
                                  const void* mean, const void* var, void* y, int64_t N,
                                  int64_t C, int64_t HW, float eps, int dtype, void* stream) {
  if (N <= 0 || C <= 0 || HW <= 0) return 0;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, weight, bias, mean, var, y, N, C, HW, eps, s);
    case 1: return launch<__half>(x, weight, bias, mean, var, y, N, C, HW, eps, s);
    case 2: return launch<__nv_bfloat16>(x, weight, bias, mean, var, y, N, C, HW, eps, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
