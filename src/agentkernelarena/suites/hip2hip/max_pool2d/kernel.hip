// hip2hip/max_pool2d: 3x3 max pooling with stride 2 and padding 1 of NCHW activations (the
// stem of ResNet-style networks), as torch.nn.functional.max_pool2d(x, 3, stride=2,
// padding=1): y[n, c, i, j] = the maximum of x[n, c, 2i - 1 .. 2i + 1, 2j - 1 .. 2j + 1] over
// the positions inside the plane (the padding never wins), Ho = (H - 1) / 2 + 1 rows and
// Wo = (W - 1) / 2 + 1 columns. Values are copied, not computed: the result is exact.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_max_pool2d(const void* x, void* y, int64_t planes, int64_t H, int64_t W,
//                                 int64_t Ho, int64_t Wo, int dtype, void* stream);
// x is a contiguous device array of `planes` (N * C) planes of H x W, y of planes of Ho x Wo,
// one dtype (0 float32, 1 float16, 2 bfloat16 as raw bits). Launch on `stream` (a hipStream_t)
// and return hipGetLastError(). This file must not include torch headers. It runs on AMD GPUs
// (64-lane wavefronts) and, translated to CUDA by the arena, on NVIDIA GPUs (32-lane warps).
//
// Baseline: one thread per output element, nine scalar loads each with bounds checks; the
// lanes of a wavefront read every other element of three rows.
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
__global__ void max_pool_3x3_s2(const T* __restrict__ x, T* __restrict__ y, int64_t total,
                                int64_t H, int64_t W, int64_t Ho, int64_t Wo) {
  const int64_t o = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= total) return;
  const int64_t j = o % Wo;
  const int64_t i = (o / Wo) % Ho;
  const int64_t plane = o / (Wo * Ho);
  const T* src = x + plane * H * W;
  // The window's centre is always inside the plane (2i <= H - 1): start from it, so the
  // result is one of the input values, copied bit for bit.
  T best = src[(2 * i) * W + 2 * j];
  float best_f = to_float(best);
  for (int64_t r = 2 * i - 1; r <= 2 * i + 1; ++r) {
    if (r < 0 || r >= H) continue;
    for (int64_t c = 2 * j - 1; c <= 2 * j + 1; ++c) {
      if (c < 0 || c >= W) continue;
      const T v = src[r * W + c];
      const float f = to_float(v);
      if (f > best_f) {
        best = v;
        best_f = f;
      }
    }
  }
  y[o] = best;
}

template <typename T>
int launch(const void* x, void* y, int64_t planes, int64_t H, int64_t W, int64_t Ho, int64_t Wo,
           hipStream_t stream) {
  const int64_t total = planes * Ho * Wo;
  const int64_t blocks = (total + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(max_pool_3x3_s2<T>, dim3(static_cast<unsigned>(blocks)), dim3(kThreads), 0,
                     stream, static_cast<const T*>(x), static_cast<T*>(y), total, H, W, Ho, Wo);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_max_pool2d(const void* x, void* y, int64_t planes, int64_t H, int64_t W,
                              int64_t Ho, int64_t Wo, int dtype, void* stream) {
  if (planes <= 0 || Ho <= 0 || Wo <= 0) return 0;
  if (Ho != (H - 1) / 2 + 1 || Wo != (W - 1) / 2 + 1) return static_cast<int>(hipErrorInvalidValue);
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, y, planes, H, W, Ho, Wo, s);
    case 1: return launch<__half>(x, y, planes, H, W, Ho, Wo, s);
    case 2: return launch<bf16_t>(x, y, planes, H, W, Ho, Wo, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
