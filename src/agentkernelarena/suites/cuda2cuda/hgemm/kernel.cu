// cuda2cuda/hgemm: C = A @ B for row-major float16 matrices, A (M x K), B (K x N), C (M x N),
// accumulated in float32 and rounded once to float16.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_hgemm(const void* a, const void* b, void* c, int64_t M, int64_t N,
//                            int64_t K, void* stream);
// Any M, N, K >= 1 (not multiples of anything); launch on `stream` (a cudaStream_t) and return
// cudaGetLastError(). This file must not include torch headers.
//
// Baseline: one thread per element of C, 16 x 16 blocks; each thread walks its row of A and
// its column of B straight from global memory (the threads of a warp read consecutive
// elements of a row of B), with a float32 accumulator.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kBlock = 16;

__global__ void hgemm_naive(const __half* __restrict__ A, const __half* __restrict__ B,
                            __half* __restrict__ C, int M, int N, int K) {
  const int col = blockIdx.x * kBlock + threadIdx.x;
  const int row = blockIdx.y * kBlock + threadIdx.y;
  if (row >= M || col >= N) return;
  const __half* a = A + static_cast<int64_t>(row) * K;
  float acc = 0.f;
  for (int k = 0; k < K; ++k) {
    acc += __half2float(a[k]) * __half2float(B[static_cast<int64_t>(k) * N + col]);
  }
  C[static_cast<int64_t>(row) * N + col] = __float2half_rn(acc);
}

}  // namespace

extern "C" int aka_hgemm(const void* a, const void* b, void* c, int64_t M, int64_t N, int64_t K,
                         void* stream) {
  if (M <= 0 || N <= 0 || K <= 0) return 0;
  const int64_t grid_y = (M + kBlock - 1) / kBlock;
  const int64_t grid_x = (N + kBlock - 1) / kBlock;
  if (M > 2147483647LL || N > 2147483647LL || K > 2147483647LL || grid_y > 65535) {
    return static_cast<int>(cudaErrorInvalidValue);
  }
  const dim3 grid(static_cast<unsigned>(grid_x), static_cast<unsigned>(grid_y));
  const dim3 block(kBlock, kBlock);
  hgemm_naive<<<grid, block, 0, static_cast<cudaStream_t>(stream)>>>(
      static_cast<const __half*>(a), static_cast<const __half*>(b), static_cast<__half*>(c),
      static_cast<int>(M), static_cast<int>(N), static_cast<int>(K));
  return static_cast<int>(cudaGetLastError());
}
