// cuda2cuda/int8_gemm, solution: shared-memory tiles and register blocking in int32.
//
// Launcher contract as in the baseline (binding.cpp declares it):
//   extern "C" int aka_int8_gemm(const void* a, const void* b, const void* scale_a,
//                                const void* scale_b, void* c, int64_t M, int64_t N,
//                                int64_t K, void* stream);
//
// Same function as the baseline (int32 sums, then float(sum) * scale_a[m] * scale_b[n]).
// Each block of 256 threads computes a BM x BN tile of C (128 x 128, or 64 x 64 when the big
// tiles would leave SMs idle), each thread a TM x TN sub-tile of int32 accumulators. The
// int8 tiles of A (transposed, k-major) and B are sign-extended to int32 once when staged in
// shared memory, so every shared value read feeds TM or TN multiply-adds (read as int4).
// (Packing four k into a 32-bit word for __dp4a, or int8 tensor cores through mma.sync,
// would go several times faster again.)
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;
constexpr int kBK = 16;

template <int BM, int BN, int TM, int TN>
__global__ void __launch_bounds__(kThreads)
    igemm_blocked(const int8_t* __restrict__ A, const int8_t* __restrict__ B,
                  const float* __restrict__ sa, const float* __restrict__ sb,
                  float* __restrict__ C, int M, int N, int K) {
  static_assert((BM / TM) * (BN / TN) == kThreads, "one thread per TM x TN sub-tile");
  static_assert(TM % 4 == 0 && TN % 4 == 0, "sub-tiles are read as int4");
  __shared__ __align__(16) int As[kBK][BM + 4];  // A tile, transposed: As[k][m]
  __shared__ __align__(16) int Bs[kBK][BN + 4];  // B tile: Bs[k][n]

  const int tid = threadIdx.x;
  const int tx = tid % (BN / TN);
  const int ty = tid / (BN / TN);
  const int block_m = blockIdx.y * BM;
  const int block_n = blockIdx.x * BN;

  int acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i) {
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = 0;
  }

  for (int k0 = 0; k0 < K; k0 += kBK) {
    // Consecutive threads read consecutive bytes of a row of A (16 per row) and of B.
    for (int idx = tid; idx < BM * kBK; idx += kThreads) {
      const int r = idx / kBK;
      const int c = idx % kBK;
      const int gr = block_m + r;
      const int gc = k0 + c;
      As[c][r] = (gr < M && gc < K) ? static_cast<int>(A[static_cast<int64_t>(gr) * K + gc]) : 0;
    }
    for (int idx = tid; idx < kBK * BN; idx += kThreads) {
      const int r = idx / BN;
      const int c = idx % BN;
      const int gr = k0 + r;
      const int gc = block_n + c;
      Bs[r][c] = (gr < K && gc < N) ? static_cast<int>(B[static_cast<int64_t>(gr) * N + gc]) : 0;
    }
    __syncthreads();

#pragma unroll
    for (int k = 0; k < kBK; ++k) {
      int a[TM];
      int b[TN];
#pragma unroll
      for (int i = 0; i < TM; i += 4) {
        const int4 q = *reinterpret_cast<const int4*>(&As[k][ty * TM + i]);
        a[i] = q.x;
        a[i + 1] = q.y;
        a[i + 2] = q.z;
        a[i + 3] = q.w;
      }
#pragma unroll
      for (int j = 0; j < TN; j += 4) {
        const int4 q = *reinterpret_cast<const int4*>(&Bs[k][tx * TN + j]);
        b[j] = q.x;
        b[j + 1] = q.y;
        b[j + 2] = q.z;
        b[j + 3] = q.w;
      }
#pragma unroll
      for (int i = 0; i < TM; ++i) {
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
      }
    }
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int gr = block_m + ty * TM + i;
    if (gr >= M) continue;
    float* row = C + static_cast<int64_t>(gr) * N;
    const float scale = sa[gr];
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      const int gc = block_n + tx * TN + j;
      if (gc < N) row[gc] = static_cast<float>(acc[i][j]) * scale * sb[gc];
    }
  }
}

template <int BM, int BN, int TM, int TN>
int launch(const int8_t* a, const int8_t* b, const float* sa, const float* sb, float* c,
           int64_t M, int64_t N, int64_t K, cudaStream_t stream) {
  const int64_t grid_y = (M + BM - 1) / BM;
  const int64_t grid_x = (N + BN - 1) / BN;
  if (grid_y > 65535 || grid_x > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
  const dim3 grid(static_cast<unsigned>(grid_x), static_cast<unsigned>(grid_y));
  igemm_blocked<BM, BN, TM, TN><<<grid, kThreads, 0, stream>>>(
      a, b, sa, sb, c, static_cast<int>(M), static_cast<int>(N), static_cast<int>(K));
  return static_cast<int>(cudaGetLastError());
}

}  // namespace

extern "C" int aka_int8_gemm(const void* a, const void* b, const void* scale_a,
                             const void* scale_b, void* c, int64_t M, int64_t N, int64_t K,
                             void* stream) {
  if (M <= 0 || N <= 0 || K <= 0) return 0;
  if (M > 2147483647LL || N > 2147483647LL || K > 2147483647LL) {
    return static_cast<int>(cudaErrorInvalidValue);
  }
  int device = 0, sms = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err == cudaSuccess) {
    err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  }
  if (err != cudaSuccess) return static_cast<int>(err);
  const int8_t* A = static_cast<const int8_t*>(a);
  const int8_t* B = static_cast<const int8_t*>(b);
  const float* SA = static_cast<const float*>(scale_a);
  const float* SB = static_cast<const float*>(scale_b);
  float* C = static_cast<float*>(c);
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  const int64_t big_tiles = ((M + 127) / 128) * ((N + 127) / 128);
  if (big_tiles >= sms) return launch<128, 128, 8, 8>(A, B, SA, SB, C, M, N, K, s);
  return launch<64, 64, 4, 4>(A, B, SA, SB, C, M, N, K, s);
}
