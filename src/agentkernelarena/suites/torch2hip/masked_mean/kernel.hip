// torch2hip/masked_mean: y[b, d] = sum_s mask[b, s] * x[b, s, d] / max(1, sum_s mask[b, s]),
// accumulated in float32.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_masked_mean(const void* x, const void* mask, void* y, int64_t B,
//                                  int64_t S, int64_t D, int dtype, void* stream);
// x is a contiguous B x S x D device array (dtype 0 float32, 1 float16, 2 bfloat16), mask a
// contiguous B x S array of bytes (0 or 1), y a B x D array of x's dtype; launch on `stream`
// (a hipStream_t) and return hipGetLastError(). This file must not include torch headers. It
// runs on AMD GPUs (64-lane wavefronts) and, translated to CUDA by the arena, on NVIDIA GPUs
// (32-lane warps).
//
// This is a starting point that is correct and deliberately simple: one thread per output
// element, looping over the whole sequence. The task is measured against PyTorch eager
// (baseline.py).
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;

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

template <typename T>
__global__ void masked_mean_simple(const T* __restrict__ x, const unsigned char* __restrict__ mask,
                                   T* __restrict__ y, int64_t B, int64_t S, int64_t D) {
  const int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= B * D) return;
  const int64_t b = idx / D;
  const int64_t d = idx % D;
  float sum = 0.f, count = 0.f;
  for (int64_t s = 0; s < S; ++s) {
    if (mask[b * S + s]) {
      sum += to_float(x[(b * S + s) * D + d]);
      count += 1.f;
    }
  }
  y[idx] = from_float<T>(sum / fmaxf(count, 1.f));
}

template <typename T>
int launch(const void* x, const void* mask, void* y, int64_t B, int64_t S, int64_t D,
           hipStream_t stream) {
  const int64_t blocks = (B * D + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(masked_mean_simple<T>, dim3(static_cast<unsigned>(blocks)), dim3(kThreads),
                     0, stream, static_cast<const T*>(x), static_cast<const unsigned char*>(mask),
                     static_cast<T*>(y), B, S, D);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_masked_mean(const void* x, const void* mask, void* y, int64_t B, int64_t S,
                               int64_t D, int dtype, void* stream) {
  if (B <= 0 || D <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, mask, y, B, S, D, s);
    case 1: return launch<__half>(x, mask, y, B, S, D, s);
    case 2: return launch<bf16_t>(x, mask, y, B, S, D, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
