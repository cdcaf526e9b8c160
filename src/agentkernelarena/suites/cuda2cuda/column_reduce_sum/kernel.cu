// cuda2cuda/column_reduce_sum: y[n] = sum over m of x[m, n], for a row-major float32 M x N
// matrix x, accumulated in float32.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_column_reduce_sum(const void* x, void* y, int64_t M, int64_t N,
//                                        void* stream);
// Any M, N >= 1; y (N floats) is allocated but not initialized by the binding: write every
// element. Launch on `stream` (a cudaStream_t) and return cudaGetLastError(). This file must
// not include torch headers.
//
// Baseline: one thread per column, walking down its column (the threads of a warp read 32
// consecutive elements of a row: coalesced, but each thread runs through all M rows alone).
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;

__global__ void column_sum_naive(const float* __restrict__ x, float* __restrict__ y, int64_t M,
                                 int64_t N) {
  const int64_t col = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (col >= N) return;
  float acc = 0.f;
  for (int64_t r = 0; r < M; ++r) acc += x[r * N + col];
  y[col] = acc;
}

}  // namespace

extern "C" int aka_column_reduce_sum(const void* x, void* y, int64_t M, int64_t N,
                                     void* stream) {
  if (M <= 0 || N <= 0) return 0;
  const int64_t blocks = (N + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
  column_sum_naive<<<static_cast<unsigned>(blocks), kThreads, 0,
                     static_cast<cudaStream_t>(stream)>>>(static_cast<const float*>(x),
                                                          static_cast<float*>(y), M, N);
  return static_cast<int>(cudaGetLastError());
}
