// torch2hip/max_pool2d: 2 x 2, stride 2 max pooling of NCHW planes (floor mode),
// y[p, i, j] = max(x[p, 2i, 2j], x[p, 2i, 2j + 1], x[p, 2i + 1, 2j], x[p, 2i + 1, 2j + 1]).
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_max_pool2d(const void* x, void* y, int64_t P, int64_t H, int64_t W,
//                                 int dtype, void* stream);
// x holds P = N * C contiguous H x W planes, y P contiguous (H / 2) x (W / 2) planes (an odd
// last row or column of x is not read), one dtype (0 float32, 1 float16, 2 bfloat16); launch
// on `stream` (a hipStream_t) and return hipGetLastError(). This file must not include torch
// headers. It runs on AMD GPUs (64-lane wavefronts) and, translated to CUDA by the arena, on
// NVIDIA GPUs (32-lane warps).
//
// This is a starting point that is correct and deliberately simple: one thread per output
// element, which recovers (plane, row, column) from a flat 64-bit index and makes four scalar
// loads. The task is measured against PyTorch eager (baseline.py).
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
__device__ __forceinline__ __half from_float<__half>(float v) { return __float2half_rn(v); }
template <>
__device__ __forceinline__ bf16_t from_float<bf16_t>(float v) {
  unsigned u = __float_as_uint(v);
  if ((u & 0x7fffffffu) > 0x7f800000u) return bf16_t{static_cast<unsigned short>((u >> 16) | 0x40)};
  u += 0x7fffu + ((u >> 16) & 1u);  // round to nearest even
  return bf16_t{static_cast<unsigned short>(u >> 16)};
}

constexpr int kThreads = 256;

template <typename T>
__global__ void max_pool_simple(const T* __restrict__ x, T* __restrict__ y, int64_t P,
                                int64_t H, int64_t W) {
  const int64_t Ho = H / 2, Wo = W / 2;
  const int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= P * Ho * Wo) return;
  const int64_t j = idx % Wo;
  const int64_t i = (idx / Wo) % Ho;
  const int64_t p = idx / (Wo * Ho);
  const T* top = x + (p * H + 2 * i) * W + 2 * j;
  const float m = fmaxf(fmaxf(to_float(top[0]), to_float(top[1])),
                        fmaxf(to_float(top[W]), to_float(top[W + 1])));
  y[idx] = from_float<T>(m);
}

template <typename T>
int launch(const void* x, void* y, int64_t P, int64_t H, int64_t W, hipStream_t stream) {
  const int64_t blocks = (P * (H / 2) * (W / 2) + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(max_pool_simple<T>, dim3(static_cast<unsigned>(blocks)), dim3(kThreads), 0,
                     stream, static_cast<const T*>(x), static_cast<T*>(y), P, H, W);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_max_pool2d(const void* x, void* y, int64_t P, int64_t H, int64_t W, int dtype,
                              void* stream) {
  if (P <= 0 || H < 2 || W < 2) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, y, P, H, W, s);
    case 1: return launch<__half>(x, y, P, H, W, s);
    case 2: return launch<bf16_t>(x, y, P, H, W, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
