// hip2hip/batched_gemv: decode-time batched matrix-vector products, y[b, n] = sum_k w[b, n, k] *
// x[b, k] (a small batch of activation vectors, each against its own matrix), float32
// accumulation, y rounded once to the inputs' dtype.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_batched_gemv(const void* w, const void* x, void* y, int64_t B, int64_t N,
//                                   int64_t K, int dtype, void* stream);
// w is a contiguous B x N x K device array, x B x K, y B x N, all of one dtype (1 float16,
// 2 bfloat16 as raw bits); K need not be a multiple of 8. Launch on `stream` (a hipStream_t)
// and return hipGetLastError(). This file must not include torch headers. It runs on AMD GPUs
// (64-lane wavefronts) and, translated to CUDA by the arena, on NVIDIA GPUs (32-lane warps):
// take the wavefront size from warpSize / hipDeviceAttributeWarpSize, never a constant.
//
// Baseline: one thread per output element, walking its row of w element by element. The
// threads of a wavefront read rows K elements apart, so every load touches as many cache lines
// as there are lanes.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;

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
__device__ __forceinline__ __half from_float<__half>(float v) { return __float2half_rn(v); }
template <>
__device__ __forceinline__ bf16_t from_float<bf16_t>(float v) {
  unsigned u = __float_as_uint(v);
  if ((u & 0x7fffffffu) > 0x7f800000u) return bf16_t{static_cast<unsigned short>((u >> 16) | 0x40)};
  u += 0x7fffu + ((u >> 16) & 1u);  // round to nearest even
  return bf16_t{static_cast<unsigned short>(u >> 16)};
}

template <typename T>
__global__ void gemv_rows(const T* __restrict__ w, const T* __restrict__ x, T* __restrict__ y,
                          int64_t B, int64_t N, int64_t K) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= B * N) return;
  const int64_t b = i / N;
  const T* row = w + i * K;
  const T* vec = x + b * K;
  float acc = 0.f;
  for (int64_t k = 0; k < K; ++k) acc += to_float(row[k]) * to_float(vec[k]);
  y[i] = from_float<T>(acc);
}

template <typename T>
int launch(const void* w, const void* x, void* y, int64_t B, int64_t N, int64_t K,
           hipStream_t stream) {
  const int64_t blocks = (B * N + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(gemv_rows<T>, dim3(static_cast<unsigned>(blocks)), dim3(kThreads), 0, stream,
                     static_cast<const T*>(w), static_cast<const T*>(x), static_cast<T*>(y), B, N,
                     K);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_batched_gemv(const void* w, const void* x, void* y, int64_t B, int64_t N,
                                int64_t K, int dtype, void* stream) {
  if (B <= 0 || N <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 1: return launch<__half>(w, x, y, B, N, K, s);
    case 2: return launch<bf16_t>(w, x, y, B, N, K, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
