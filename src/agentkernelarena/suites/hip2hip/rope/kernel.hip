// hip2hip/rope: rotary position embedding, rotate-half form (GPT-NeoX, Llama). For token t,
// head h and i < D/2, with c = cos[t, i], s = sin[t, i]:
//   out[t, h, i]         = q[t, h, i] * c - q[t, h, i + D/2] * s
//   out[t, h, i + D/2]   = q[t, h, i + D/2] * c + q[t, h, i] * s
// computed in float32.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_rope_forward(const void* q, const void* cos, const void* sin, void* out,
//                                   int64_t T, int64_t H, int64_t D, int dtype, void* stream);
// q and out are contiguous T x H x D device arrays of one dtype (0 float32, 1 float16,
// 2 bfloat16), D even; cos and sin are contiguous float32 T x D/2 tables. Launch on `stream`
// (a hipStream_t) and return hipGetLastError(). This file must not include torch headers. It
// runs on AMD GPUs (64-lane wavefronts) and, translated to CUDA by the arena, on NVIDIA GPUs
// (32-lane warps).
//
// Baseline: one thread per output element over the flat T * H * D index, which it splits into
// (token, element of the head) with 64-bit divisions; each thread loads its element, its
// partner in the other half and the two table entries one value at a time.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;

// bfloat16 as raw bits: portable across ROCm versions and the translation to CUDA.
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
__global__ void rope_flat(const T* __restrict__ q, const float* __restrict__ cos_t,
                          const float* __restrict__ sin_t, T* __restrict__ out, int64_t total,
                          int64_t H, int64_t D) {
  const int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= total) return;
  const int64_t half = D / 2;
  const int64_t t = idx / (H * D);
  const int64_t d = idx % D;
  const bool first = d < half;
  const int64_t i = first ? d : d - half;
  const float c = cos_t[t * half + i];
  const float s = sin_t[t * half + i];
  const float x = to_float(q[idx]);
  const float partner = to_float(q[first ? idx + half : idx - half]);
  out[idx] = from_float<T>(first ? x * c - partner * s : x * c + partner * s);
}

template <typename T>
int launch(const void* q, const void* cos_t, const void* sin_t, void* out, int64_t T_, int64_t H,
           int64_t D, hipStream_t stream) {
  const int64_t total = T_ * H * D;
  const int64_t blocks = (total + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(rope_flat<T>, dim3(static_cast<unsigned>(blocks)), dim3(kThreads), 0, stream,
                     static_cast<const T*>(q), static_cast<const float*>(cos_t),
                     static_cast<const float*>(sin_t), static_cast<T*>(out), total, H, D);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_rope_forward(const void* q, const void* cos, const void* sin, void* out,
                                int64_t T, int64_t H, int64_t D, int dtype, void* stream) {
  if (T <= 0 || H <= 0 || D <= 0) return 0;
  if (D % 2 != 0) return static_cast<int>(hipErrorInvalidValue);
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(q, cos, sin, out, T, H, D, s);
    case 1: return launch<__half>(q, cos, sin, out, T, H, D, s);
    case 2: return launch<bf16_t>(q, cos, sin, out, T, H, D, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
