// torch2hip/cumsum_reverse: the reverse (suffix) cumulative sum of each row of a float32
// matrix, y[m, j] = sum_{k >= j} x[m, k].
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_cumsum_reverse(const void* x, void* y, int64_t M, int64_t N,
//                                     void* stream);
// x and y are contiguous M x N row-major float32 device arrays; launch on `stream` (a
// hipStream_t) and return hipGetLastError(). This file must not include torch headers. It
// runs on AMD GPUs (64-lane wavefronts) and, translated to CUDA by the arena, on NVIDIA GPUs
// (32-lane warps).
//
// This is a starting point that is correct and deliberately simple: one thread per row, which
// walks its row from the end, adding as it goes. The task is measured against PyTorch eager
// (baseline.py).
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 128;

__global__ void cumsum_reverse_simple(const float* __restrict__ x, float* __restrict__ y,
                                      int64_t M, int64_t N) {
  const int64_t m = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (m >= M) return;
  float acc = 0.f;
  for (int64_t j = N - 1; j >= 0; --j) {
    acc += x[m * N + j];
    y[m * N + j] = acc;
  }
}

}  // namespace

extern "C" int aka_cumsum_reverse(const void* x, void* y, int64_t M, int64_t N, void* stream) {
  if (M <= 0 || N <= 0) return 0;
  const int64_t blocks = (M + kThreads - 1) / kThreads;
  hipLaunchKernelGGL(cumsum_reverse_simple, dim3(static_cast<unsigned>(blocks)), dim3(kThreads),
                     0, static_cast<hipStream_t>(stream), static_cast<const float*>(x),
                     static_cast<float*>(y), M, N);
  return static_cast<int>(hipGetLastError());
}
