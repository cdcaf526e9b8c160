// torch2hip/rope: rotary position embedding in the rotate_half form, for d < D/2
//   y[t, h, d]       = x[t, h, d] * cos[t, d] - x[t, h, d + D/2] * sin[t, d]
//   y[t, h, d + D/2] = x[t, h, d + D/2] * cos[t, d + D/2] + x[t, h, d] * sin[t, d + D/2]
// in float32.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_rope(const void* x, const void* cos, const void* sin, void* y, int64_t T,
//                           int64_t H, int64_t D, int dtype, void* stream);
// x and y are contiguous T x H x D device arrays (tokens, heads, head_dim; D even), cos and sin
// contiguous T x D tables, all of one dtype (0 float32, 1 float16, 2 bfloat16); launch on
// `stream` (a hipStream_t) and return hipGetLastError(). This file must not include torch
// headers. It runs on AMD GPUs (64-lane wavefronts) and, translated to CUDA by the arena, on
// NVIDIA GPUs (32-lane warps).
//
// This is a starting point that is correct and deliberately simple: one thread per output
// element, which recovers its token and column from a flat 64-bit index. The task is measured
// against PyTorch eager (baseline.py).
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
__device__ __forceinline__ float from_float<float>(float v) { return v; }
template <>
__device__ __forceinline__ __half from_float<__half>(float v) { return __float2half(v); }
template <>
__device__ __forceinline__ bf16_t from_float<bf16_t>(float v) {
  unsigned u = __float_as_uint(v);
  if ((u & 0x7fffffffu) > 0x7f800000u) return bf16_t{static_cast<unsigned short>((u >> 16) | 0x40)};
  u += 0x7fffu + ((u >> 16) & 1u);  // round to nearest even
  return bf16_t{static_cast<unsigned short>(u >> 16)};
}

constexpr int kThreads = 256;

template <typename T>
__global__ void rope_simple(const T* __restrict__ x, const T* __restrict__ cos,
                            const T* __restrict__ sin, T* __restrict__ y, int64_t T_, int64_t H,
                            int64_t D) {
  const int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= T_ * H * D) return;
  const int64_t t = idx / (H * D);
  const int64_t d = idx % D;
  const int64_t half = D / 2;
  const float rotated = d < half ? -to_float(x[idx + half]) : to_float(x[idx - half]);
  y[idx] = from_float<T>(to_float(x[idx]) * to_float(cos[t * D + d]) +
                         rotated * to_float(sin[t * D + d]));
}

template <typename T>
int launch(const void* x, const void* cos, const void* sin, void* y, int64_t T_, int64_t H,
           int64_t D, hipStream_t stream) {
  const int64_t blocks = (T_ * H * D + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(rope_simple<T>, dim3(static_cast<unsigned>(blocks)), dim3(kThreads), 0,
                     stream, static_cast<const T*>(x), static_cast<const T*>(cos),
                     static_cast<const T*>(sin), static_cast<T*>(y), T_, H, D);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_rope(const void* x, const void* cos, const void* sin, void* y, int64_t T,
                        int64_t H, int64_t D, int dtype, void* stream) {
  if (T <= 0 || H <= 0 || D <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, cos, sin, y, T, H, D, s);
    case 1: return launch<__half>(x, cos, sin, y, T, H, D, s);
    case 2: return launch<bf16_t>(x, cos, sin, y, T, H, D, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
