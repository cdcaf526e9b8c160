// hip2hip/transpose: y = x^T for a row-major M x N matrix x (y is N x M, row-major).
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_transpose(const void* x, void* y, int64_t M, int64_t N, int elem_bytes,
//                                void* stream);
// Elements are 2 or 4 bytes (float16/bfloat16 or float32) and are copied bit for bit; launch
// on `stream` (a hipStream_t) and return hipGetLastError(). This file must not include torch
// headers. It runs on AMD GPUs (64-lane wavefronts) and, translated to CUDA by the arena, on
// NVIDIA GPUs (32-lane warps).
//
// Baseline: one thread per element, 16 x 16 blocks. Reads are coalesced along a row of x;
// the writes of neighbouring threads land N elements apart in y.
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

constexpr int kBlock = 16;

template <typename T>
__global__ void transpose_naive(const T* __restrict__ x, T* __restrict__ y, int64_t M,
                                int64_t N) {
  const int64_t j = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y; i < M;
       i += static_cast<int64_t>(gridDim.y) * blockDim.y) {
    if (j < N) y[j * M + i] = x[i * N + j];
  }
}

template <typename T>
int launch(const void* x, void* y, int64_t M, int64_t N, hipStream_t stream) {
  const int64_t gx = (N + kBlock - 1) / kBlock;
  int64_t gy = (M + kBlock - 1) / kBlock;
  if (gx > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  gy = gy > 65535 ? 65535 : gy;
  hipLaunchKernelGGL(transpose_naive<T>, dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy)),
                     dim3(kBlock, kBlock), 0, stream, static_cast<const T*>(x), static_cast<T*>(y),
                     M, N);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_transpose(const void* x, void* y, int64_t M, int64_t N, int elem_bytes,
                             void* stream) {
  if (M <= 0 || N <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  if (elem_bytes == 4) return launch<uint32_t>(x, y, M, N, s);
  if (elem_bytes == 2) return launch<uint16_t>(x, y, M, N, s);
  return static_cast<int>(hipErrorInvalidValue);
}
