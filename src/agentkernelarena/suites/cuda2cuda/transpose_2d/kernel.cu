// cuda2cuda/transpose_2d: y[n, m] = x[m, n] for a row-major M x N matrix x and the row-major
// N x M matrix y, float32 or float16 (a pure copy of bits: elements of 4 or 2 bytes).
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_transpose_2d(const void* x, void* y, int64_t M, int64_t N,
//                                   int elem_size, void* stream);
// Any M, N >= 1; launch on `stream` (a cudaStream_t) and return cudaGetLastError(). This file
// must not include torch headers.
//
// Baseline: one thread per element, 32 x 8 blocks. A warp reads 32 consecutive elements of a
// row of x (coalesced) and writes them to 32 different rows of y (one element per row).
#include <cuda_runtime.h>

#include <cstdint>

namespace {

template <typename T>
__global__ void transpose_naive(const T* __restrict__ x, T* __restrict__ y, int64_t M,
                                int64_t N) {
  const int64_t col = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t row = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (row < M && col < N) y[col * M + row] = x[row * N + col];
}

template <typename T>
int launch(const void* x, void* y, int64_t M, int64_t N, cudaStream_t stream) {
  const dim3 block(32, 8);
  const int64_t gx = (N + 31) / 32;
  const int64_t gy = (M + 7) / 8;
  if (gy > 65535 || gx > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
  const dim3 grid(static_cast<unsigned>(gx), static_cast<unsigned>(gy));
  transpose_naive<T><<<grid, block, 0, stream>>>(static_cast<const T*>(x), static_cast<T*>(y),
                                                 M, N);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace

extern "C" int aka_transpose_2d(const void* x, void* y, int64_t M, int64_t N, int elem_size,
                                void* stream) {
  if (M <= 0 || N <= 0) return 0;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (elem_size) {
    case 4: return launch<uint32_t>(x, y, M, N, s);
    case 2: return launch<uint16_t>(x, y, M, N, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
