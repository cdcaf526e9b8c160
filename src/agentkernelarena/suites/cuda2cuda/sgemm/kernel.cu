// cuda2cuda/sgemm: C = A @ B for row-major float32 matrices, A (M x K), B (K x N), C (M x N).
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_sgemm(const void* a, const void* b, void* c, int64_t M, int64_t N,
//                            int64_t K, void* stream);
// Any M, N, K >= 1 (not multiples of anything); launch on `stream` (a cudaStream_t) and return
// cudaGetLastError(). Accumulate in float32 (no TF32, no reduced precision). This file must
// not include torch headers.
//
// Baseline: the textbook shared-memory tiled kernel, one output element per thread, 16 x 16
// tiles of A and B staged through shared memory.
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kTile = 16;

__global__ void sgemm_tiled(const float* __restrict__ A, const float* __restrict__ B,
                            float* __restrict__ C, int M, int N, int K) {
  __shared__ float As[kTile][kTile];
  __shared__ float Bs[kTile][kTile];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int row = blockIdx.y * kTile + ty;
  const int col = blockIdx.x * kTile + tx;
  float acc = 0.f;
  for (int t = 0; t < K; t += kTile) {
    As[ty][tx] = (row < M && t + tx < K) ? A[static_cast<int64_t>(row) * K + t + tx] : 0.f;
    Bs[ty][tx] = (t + ty < K && col < N) ? B[static_cast<int64_t>(t + ty) * N + col] : 0.f;
    __syncthreads();
    for (int k = 0; k < kTile; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) C[static_cast<int64_t>(row) * N + col] = acc;
}

}  // namespace

extern "C" int aka_sgemm(const void* a, const void* b, void* c, int64_t M, int64_t N, int64_t K,
                         void* stream) {
  if (M <= 0 || N <= 0 || K <= 0) return 0;
  const int64_t grid_y = (M + kTile - 1) / kTile;
  const int64_t grid_x = (N + kTile - 1) / kTile;
  if (M > 2147483647LL || N > 2147483647LL || K > 2147483647LL || grid_y > 65535) {
    return static_cast<int>(cudaErrorInvalidValue);
  }
  const dim3 grid(static_cast<unsigned>(grid_x), static_cast<unsigned>(grid_y));
  const dim3 block(kTile, kTile);
  sgemm_tiled<<<grid, block, 0, static_cast<cudaStream_t>(stream)>>>(
      static_cast<const float*>(a), static_cast<const float*>(b), static_cast<float*>(c),
      static_cast<int>(M), static_cast<int>(N), static_cast<int>(K));
  return static_cast<int>(cudaGetLastError());
}
