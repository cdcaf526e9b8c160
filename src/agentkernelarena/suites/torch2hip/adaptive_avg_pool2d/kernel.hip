// torch2hip/adaptive_avg_pool2d: adaptive average pooling of NCHW planes to OH x OW (7 x 7):
// y[p, i, j] = mean of x[p, h, w] over floor(i * H / OH) <= h < ceil((i + 1) * H / OH),
// floor(j * W / OW) <= w < ceil((j + 1) * W / OW), in float32.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_adaptive_avg_pool2d(const void* x, void* y, int64_t P, int64_t H,
//                                          int64_t W, int64_t OH, int64_t OW, int dtype,
//                                          void* stream);
// x holds P = N * C contiguous H x W planes, y P contiguous OH x OW planes (OH = OW = 7), one
// dtype (0 float32, 1 float16, 2 bfloat16); launch on `stream` (a hipStream_t) and return
// hipGetLastError(). This file must not include torch headers. It runs on AMD GPUs (64-lane
// wavefronts) and, translated to CUDA by the arena, on NVIDIA GPUs (32-lane warps).
//
// This is a starting point that is correct and deliberately simple: one thread per output
// element, which sums its window alone. The task is measured against PyTorch eager
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
__global__ void adaptive_avg_simple(const T* __restrict__ x, T* __restrict__ y, int64_t P,
                                    int64_t H, int64_t W, int64_t OH, int64_t OW) {
  const int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= P * OH * OW) return;
  const int64_t j = idx % OW;
  const int64_t i = (idx / OW) % OH;
  const int64_t p = idx / (OW * OH);
  const int64_t h0 = i * H / OH, h1 = ((i + 1) * H + OH - 1) / OH;
  const int64_t w0 = j * W / OW, w1 = ((j + 1) * W + OW - 1) / OW;
  const T* plane = x + p * H * W;
  float sum = 0.f;
  for (int64_t h = h0; h < h1; ++h) {
    for (int64_t w = w0; w < w1; ++w) sum += to_float(plane[h * W + w]);
  }
  y[idx] = from_float<T>(sum / static_cast<float>((h1 - h0) * (w1 - w0)));
}

template <typename T>
int launch(const void* x, void* y, int64_t P, int64_t H, int64_t W, int64_t OH, int64_t OW,
           hipStream_t stream) {
  const int64_t blocks = (P * OH * OW + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(adaptive_avg_simple<T>, dim3(static_cast<unsigned>(blocks)), dim3(kThreads),
                     0, stream, static_cast<const T*>(x), static_cast<T*>(y), P, H, W, OH, OW);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_adaptive_avg_pool2d(const void* x, void* y, int64_t P, int64_t H, int64_t W,
                                       int64_t OH, int64_t OW, int dtype, void* stream) {
  if (P <= 0 || H <= 0 || W <= 0 || OH <= 0 || OW <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, y, P, H, W, OH, OW, s);
    case 1: return launch<__half>(x, y, P, H, W, OH, OW, s);
    case 2: return launch<bf16_t>(x, y, P, H, W, OH, OW, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
