// torch2cuda/cumsum_rows: y[m, n] = x[m, 0] + ... + x[m, n], an inclusive prefix sum along each
// row, accumulated in float32 and written in x's 16-bit dtype.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_cumsum_rows(const void* x, void* y, int64_t M, int64_t N, int dtype,
//                                  void* stream);
// x and y are contiguous M x N row-major device arrays of one dtype (1 float16, 2 bfloat16);
// launch on `stream` (a cudaStream_t) and return cudaGetLastError() (0 when the launch went
// fine). This file must not include torch headers.
//
// This is a starting point that is correct and deliberately simple: one thread per row, which
// adds its row up in order. The task is measured against PyTorch eager (baseline.py).
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

constexpr int kThreads = 128;

template <typename T>
__global__ void cumsum_row_serial(const T* __restrict__ x, T* __restrict__ y, int64_t M,
                                  int64_t N) {
  const int64_t row = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= M) return;
  const T* in = x + row * N;
  T* out = y + row * N;
  float acc = 0.f;
  for (int64_t j = 0; j < N; ++j) {
    acc += to_float(in[j]);
    out[j] = from_float<T>(acc);
  }
}

template <typename T>
int launch(const void* x, void* y, int64_t M, int64_t N, cudaStream_t stream) {
  const int64_t blocks = (M + kThreads - 1) / kThreads;
  cumsum_row_serial<T><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      static_cast<const T*>(x), static_cast<T*>(y), M, N);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace

extern "C" int aka_cumsum_rows(const void* x, void* y, int64_t M, int64_t N, int dtype,
                               void* stream) {
  if (M <= 0 || N <= 0) return 0;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
    case 1: return launch<__half>(x, y, M, N, s);
    case 2: return launch<__nv_bfloat16>(x, y, M, N, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
