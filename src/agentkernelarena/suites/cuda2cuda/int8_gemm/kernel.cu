// cuda2cuda/int8_gemm: C[m, n] = float(sum_k A[m, k] * B[k, n]) * scale_a[m] * scale_b[n]
// for row-major int8 matrices A (M x K), B (K x N), the sum exact in int32, float32 scales
// and the float32 result C (M x N) (a W8A8 quantized linear layer's matrix product).
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_int8_gemm(const void* a, const void* b, const void* scale_a,
//                                const void* scale_b, void* c, int64_t M, int64_t N,
//                                int64_t K, void* stream);
// Any M, N, K >= 1 (not multiples of anything); launch on `stream` (a cudaStream_t) and return
// cudaGetLastError(). This file must not include torch headers.
//
// Baseline: one thread per element of C, 16 x 16 blocks; each thread walks its row of A and
// its column of B straight from global memory (the threads of a warp read consecutive
// elements of a row of B), with an int32 accumulator.
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kBlock = 16;

__global__ void int8_gemm_naive(const int8_t* __restrict__ A, const int8_t* __restrict__ B,
                                const float* __restrict__ sa, const float* __restrict__ sb,
                                float* __restrict__ C, int M, int N, int K) {
  const int col = blockIdx.x * kBlock + threadIdx.x;
  const int row = blockIdx.y * kBlock + threadIdx.y;
  if (row >= M || col >= N) return;
  const int8_t* a = A + static_cast<int64_t>(row) * K;
  int32_t acc = 0;
  for (int k = 0; k < K; ++k) {
    acc += static_cast<int32_t>(a[k]) * static_cast<int32_t>(B[static_cast<int64_t>(k) * N + col]);
  }
  C[static_cast<int64_t>(row) * N + col] = static_cast<float>(acc) * sa[row] * sb[col];
}

}  // namespace

extern "C" int aka_int8_gemm(const void* a, const void* b, const void* scale_a,
                             const void* scale_b, void* c, int64_t M, int64_t N, int64_t K,
                             void* stream) {
  if (M <= 0 || N <= 0 || K <= 0) return 0;
  const int64_t grid_y = (M + kBlock - 1) / kBlock;
  const int64_t grid_x = (N + kBlock - 1) / kBlock;
  if (M > 2147483647LL || N > 2147483647LL || K > 2147483647LL || grid_y > 65535) {
    return static_cast<int>(cudaErrorInvalidValue);
  }
  const dim3 grid(static_cast<unsigned>(grid_x), static_cast<unsigned>(grid_y));
  const dim3 block(kBlock, kBlock);
  int8_gemm_naive<<<grid, block, 0, static_cast<cudaStream_t>(stream)>>>(
      static_cast<const int8_t*>(a), static_cast<const int8_t*>(b),
      static_cast<const float*>(scale_a), static_cast<const float*>(scale_b),
      static_cast<float*>(c),
      static_cast<int>(M), static_cast<int>(N), static_cast<int>(K));
  return static_cast<int>(cudaGetLastError());
}
