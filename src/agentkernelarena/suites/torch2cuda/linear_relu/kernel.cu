// torch2cuda/linear_relu: y[m, n] = max(0, sum_k x[m, k] * weight[n, k] + bias[n]), a Linear
// layer (nn.Linear's N x K weight) followed by ReLU, accumulated in float32.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_linear_relu(const void* x, const void* weight, const void* bias, void* y,
//                                  int64_t M, int64_t N, int64_t K, int dtype, void* stream);
// x is a contiguous M x K device array, weight a contiguous N x K array, bias a vector of N and
// y a contiguous M x N array, all of one dtype (1 float16, 2 bfloat16); launch on `stream` (a
// cudaStream_t) and return cudaGetLastError() (0 when the launch went fine). This file must not
// include torch headers.
//
// This is a starting point that is correct and deliberately simple: one thread per output
// element, a 16 x 16 block of outputs per block, each thread walking row m of x and row n of
// weight from global memory with CUDA cores (no shared-memory tiling, no tensor cores). The
// task is measured against PyTorch eager (baseline.py: cuBLAS).
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

constexpr int kTile = 16;

template <typename T>
__global__ void linear_relu_outputs(const T* __restrict__ x, const T* __restrict__ weight,
                                    const T* __restrict__ bias, T* __restrict__ y, int64_t M,
                                    int64_t N, int64_t K) {
  const int64_t n = static_cast<int64_t>(blockIdx.x) * kTile + threadIdx.x;
  const int64_t m = static_cast<int64_t>(blockIdx.y) * kTile + threadIdx.y;
  if (m >= M || n >= N) return;
  const T* xr = x + m * K;
  const T* wr = weight + n * K;
  float acc = 0.f;
  for (int64_t k = 0; k < K; ++k) acc = fmaf(to_float(xr[k]), to_float(wr[k]), acc);
  y[m * N + n] = from_float<T>(fmaxf(acc + to_float(bias[n]), 0.f));
}

template <typename T>
int launch(const void* x, const void* weight, const void* bias, void* y, int64_t M, int64_t N,
           int64_t K, cudaStream_t stream) {
  const int64_t gx = (N + kTile - 1) / kTile, gy = (M + kTile - 1) / kTile;
  if (gx > 2147483647LL || gy > 65535) return static_cast<int>(cudaErrorInvalidValue);
  const dim3 grid(static_cast<unsigned>(gx), static_cast<unsigned>(gy));
  const dim3 block(kTile, kTile);
  linear_relu_outputs<T><<<grid, block, 0, stream>>>(
      static_cast<const T*>(x), static_cast<const T*>(weight), static_cast<const T*>(bias),
      static_cast<T*>(y), M, N, K);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace

extern "C" int aka_linear_relu(const void* x, const void* weight, const void* bias, void* y,
                               int64_t M, int64_t N, int64_t K, int dtype, void* stream) {
  if (M <= 0 || N <= 0) return 0;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
    case 1: return launch<__half>(x, weight, bias, y, M, N, K, s);
    case 2: return launch<__nv_bfloat16>(x, weight, bias, y, M, N, K, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
