// hip2hip/gemm: c = a @ b for row-major half-precision matrices, a (M x K), b (K x N),
// c (M x N), products accumulated in float32 and rounded once to c's dtype.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_gemm(const void* a, const void* b, void* c, int64_t M, int64_t N,
//                           int64_t K, int dtype, void* stream);
// a, b, c are contiguous device arrays of one dtype (1 float16, 2 bfloat16); any M, N, K >= 1
// (not multiples of anything). Launch on `stream` (a hipStream_t) and return
// hipGetLastError(). Accumulate in float32. This file must not include torch headers. It runs
// on AMD GPUs (64-lane wavefronts) and, translated to CUDA by the arena, on NVIDIA GPUs
// (32-lane warps).
//
// Baseline: one thread per element of c, 16 x 16 blocks; each thread walks row m of a and
// column n of b in global memory, one element of each per multiply-add (neighbouring threads
// share those loads only through the caches).
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

constexpr int kBlock = 16;

// bfloat16 as raw bits: portable across ROCm versions and the translation to CUDA.
struct alignas(2) bf16_t {
  unsigned short bits;
};

__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_float(bf16_t v) {
  return __uint_as_float(static_cast<unsigned>(v.bits) << 16);
}

template <typename T>
__device__ __forceinline__ T from_float(float v);
template <>
__device__ __forceinline__ __half from_float<__half>(float v) { return __float2half(v); }
template <>
__device__ __forceinline__ bf16_t from_float<bf16_t>(float v) {
  unsigned u = __float_as_uint(v);
  if ((u & 0x7fffffffu) > 0x7f800000u) return bf16_t{static_cast<unsigned short>((u >> 16) | 0x40)};
  u += 0x7fffu + ((u >> 16) & 1u);  // round to nearest even
  return bf16_t{static_cast<unsigned short>(u >> 16)};
}

template <typename T>
__global__ void gemm_naive(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ c,
                           int64_t M, int64_t N, int64_t K) {
  const int64_t n = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t m = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (m >= M || n >= N) return;
  float acc = 0.f;
  for (int64_t k = 0; k < K; ++k) acc += to_float(a[m * K + k]) * to_float(b[k * N + n]);
  c[m * N + n] = from_float<T>(acc);
}

template <typename T>
int launch(const void* a, const void* b, void* c, int64_t M, int64_t N, int64_t K,
           hipStream_t stream) {
  const int64_t gx = (N + kBlock - 1) / kBlock;
  const int64_t gy = (M + kBlock - 1) / kBlock;
  if (gx > 2147483647LL || gy > 65535) return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(gemm_naive<T>, dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy)),
                     dim3(kBlock, kBlock), 0, stream, static_cast<const T*>(a),
                     static_cast<const T*>(b), static_cast<T*>(c), M, N, K);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_gemm(const void* a, const void* b, void* c, int64_t M, int64_t N, int64_t K,
                        int dtype, void* stream) {
  if (M <= 0 || N <= 0 || K <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 1: return launch<__half>(a, b, c, M, N, K, s);
    case 2: return launch<bf16_t>(a, b, c, M, N, K, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
