// torch2hip/scaled_masked_softmax: the probabilities of eager attention,
// y[b, h, q, k] = exp(s[k] - max) / sum_k' exp(s[k'] - max) with s[k] = scores[b, h, q, k] *
// scale where mask[b, 0, q, k] is 0 and s[k] = -inf (probability 0) where it is 1, in float32.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_scaled_masked_softmax(const void* scores, const void* mask, void* y,
//                                            int64_t B, int64_t H, int64_t S, float scale,
//                                            int dtype, void* stream);
// scores and y are contiguous B x H x S x S device arrays (dtype 0 float32, 1 float16,
// 2 bfloat16), mask a contiguous B x 1 x S x S array of bytes (0 or 1, shared by the H heads;
// every row keeps at least one key); scale is 1 / sqrt(128); launch on `stream` (a
// hipStream_t) and return hipGetLastError(). This file must not include torch headers. It
// runs on AMD GPUs (64-lane wavefronts) and, translated to CUDA by the arena, on NVIDIA GPUs
// (32-lane warps).
//
// This is a starting point that is correct and deliberately simple: one thread per row, which
// walks the row three times (max, sum, output). The task is measured against PyTorch eager
// (baseline.py).
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
__global__ void softmax_simple(const T* __restrict__ scores,
                               const unsigned char* __restrict__ mask,
                               T* __restrict__ y, int64_t B, int64_t H, int64_t S, float scale) {
  const int64_t row = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= B * H * S) return;
  const int64_t b = row / (H * S);
  const int64_t q = row % S;
  const T* s = scores + row * S;
  const unsigned char* mk = mask + (b * S + q) * S;
  float mx = -INFINITY;
  for (int64_t k = 0; k < S; ++k) {
    if (!mk[k]) mx = fmaxf(mx, to_float(s[k]) * scale);
  }
  float sum = 0.f;
  for (int64_t k = 0; k < S; ++k) {
    if (!mk[k]) sum += expf(to_float(s[k]) * scale - mx);
  }
  for (int64_t k = 0; k < S; ++k) {
    const float p = mk[k] ? 0.f : expf(to_float(s[k]) * scale - mx) / sum;
    y[row * S + k] = from_float<T>(p);
  }
}

template <typename T>
int launch(const void* scores, const void* mask, void* y, int64_t B, int64_t H, int64_t S,
           float scale, hipStream_t stream) {
  const int64_t blocks = (B * H * S + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(softmax_simple<T>, dim3(static_cast<unsigned>(blocks)), dim3(kThreads), 0,
                     stream, static_cast<const T*>(scores),
                     static_cast<const unsigned char*>(mask), static_cast<T*>(y), B, H, S, scale);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_scaled_masked_softmax(const void* scores, const void* mask, void* y,
                                         int64_t B, int64_t H, int64_t S, float scale, int dtype,
                                         void* stream) {
  if (B <= 0 || H <= 0 || S <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(scores, mask, y, B, H, S, scale, s);
    case 1: return launch<__half>(scores, mask, y, B, H, S, scale, s);
    case 2: return launch<bf16_t>(scores, mask, y, B, H, S, scale, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
