// torch2cuda/bias_gelu_residual: y[m, n] = residual[m, n] + gelu(x[m, n] + b[n]) with the tanh
// approximation gelu(h) = h / 2 * (1 + tanh(sqrt(2 / pi) * (h + 0.044715 h^3))), in float32.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_bias_gelu_residual(const void* x, const void* b, const void* residual,
//                                         void* y, int64_t M, int64_t N, int dtype,
//                                         void* stream);
// x, residual and y are contiguous M x N row-major device arrays, b a vector of N, all of one
// dtype (0 float32, 1 float16, 2 bfloat16); launch on `stream` (a cudaStream_t) and return
// cudaGetLastError() (0 when the launch went fine). This file must not include torch headers.
//
// This is a starting point that is correct and deliberately simple: one thread per element,
// scalar loads. The task is measured against PyTorch eager (baseline.py).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;
constexpr int64_t kMaxBlocks = 65536;  // the grid-stride loop covers the rest

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
__global__ void bias_gelu_residual_elements(const T* __restrict__ x, const T* __restrict__ b,
                                            const T* __restrict__ residual, T* __restrict__ y,
                                            int64_t M, int64_t N) {
  const int64_t total = M * N;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const float h = to_float(x[i]) + to_float(b[i % N]);
    const float g = 0.5f * h * (1.f + tanhf(0.7978845608028654f * (h + 0.044715f * h * h * h)));
    y[i] = from_float<T>(to_float(residual[i]) + g);
  }
}

template <typename T>
int launch(const void* x, const void* b, const void* residual, void* y, int64_t M, int64_t N,
           cudaStream_t stream) {
  int64_t blocks = (M * N + kThreads - 1) / kThreads;
  if (blocks > kMaxBlocks) blocks = kMaxBlocks;
  bias_gelu_residual_elements<T><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      static_cast<const T*>(x), static_cast<const T*>(b), static_cast<const T*>(residual),
      static_cast<T*>(y), M, N);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace

extern "C" int aka_bias_gelu_residual(const void* x, const void* b, const void* residual,
                                      void* y, int64_t M, int64_t N, int dtype, void* stream) {
  if (M <= 0 || N <= 0) return 0;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, b, residual, y, M, N, s);
    case 1: return launch<__half>(x, b, residual, y, M, N, s);
    case 2: return launch<__nv_bfloat16>(x, b, residual, y, M, N, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
