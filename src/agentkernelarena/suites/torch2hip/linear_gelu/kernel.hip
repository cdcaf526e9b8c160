// torch2hip/linear_gelu: y[m, n] = gelu(sum_k x[m, k] * w[n, k] + b[n]) with the exact GELU,
// 0.5 * z * (1 + erf(z / sqrt(2))), in float32.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_linear_gelu(const void* x, const void* w, const void* b, void* y,
//                                  int64_t M, int64_t N, int64_t K, int dtype, void* stream);
// x is a contiguous M x K row-major device array, w N x K (nn.Linear's weight), b N values,
// y M x N, one dtype (1 float16, 2 bfloat16); launch on `stream` (a hipStream_t) and return
// hipGetLastError(). This file must not include torch headers. It runs on AMD GPUs (64-lane
// wavefronts) and, translated to CUDA by the arena, on NVIDIA GPUs (32-lane warps).
//
// This is a starting point that is correct and deliberately simple: one thread per output
// element, a float32 dot product straight from global memory (no tiling, no matrix cores).
// The task is measured against PyTorch eager (baseline.py).
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

struct alignas(2) bf16_t {
  unsigned short bits;
};

__device__ __forceinline__ float to_float(float v) { return v; }
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

constexpr int kTileX = 32;
constexpr int kTileY = 8;

template <typename T>
__global__ void linear_gelu_simple(const T* __restrict__ x, const T* __restrict__ w,
                                   const T* __restrict__ b, T* __restrict__ y, int64_t M,
                                   int64_t N, int64_t K) {
  const int64_t n = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t m = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (m >= M || n >= N) return;
  const T* xr = x + m * K;
  const T* wr = w + n * K;
  float z = to_float(b[n]);
  for (int64_t k = 0; k < K; ++k) z += to_float(xr[k]) * to_float(wr[k]);
  y[m * N + n] = from_float<T>(0.5f * z * (1.f + erff(z * 0.70710678118654752f)));
}

template <typename T>
int launch(const void* x, const void* w, const void* b, void* y, int64_t M, int64_t N, int64_t K,
           hipStream_t stream) {
  const int64_t gx = (N + kTileX - 1) / kTileX;
  const int64_t gy = (M + kTileY - 1) / kTileY;
  if (gx > 2147483647LL || gy > 65535) return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(linear_gelu_simple<T>, dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy)),
                     dim3(kTileX, kTileY), 0, stream, static_cast<const T*>(x),
                     static_cast<const T*>(w), static_cast<const T*>(b), static_cast<T*>(y), M, N,
                     K);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_linear_gelu(const void* x, const void* w, const void* b, void* y, int64_t M,
                               int64_t N, int64_t K, int dtype, void* stream) {
  if (M <= 0 || N <= 0 || K <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 1: return launch<__half>(x, w, b, y, M, N, K, s);
    case 2: return launch<bf16_t>(x, w, b, y, M, N, K, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
