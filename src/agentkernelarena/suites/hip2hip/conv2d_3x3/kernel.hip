// hip2hip/conv2d_3x3: dense 3x3 convolution with stride 1, padding 1 and a bias, NCHW, as
// torch.nn.functional.conv2d(x, weight, bias, padding=1) (a cross-correlation, as in every
// deep-learning framework): y[n, k, h, w] = bias[k] + sum over c, i, j in 0..2 of
// weight[k, c, i, j] * x[n, c, h + i - 1, w + j - 1] (zero outside the plane), accumulated in
// float32 and rounded once to the inputs' dtype.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_conv2d_3x3(const void* x, const void* weight, const void* bias, void* y,
//                                 int64_t N, int64_t C, int64_t K, int64_t H, int64_t W,
//                                 int dtype, void* stream);
// x is a contiguous N x C x H x W device array, weight K x C x 3 x 3, bias K, y N x K x H x W,
// all float16 (dtype 1) or bfloat16 (2, raw bits). Launch on `stream` (a hipStream_t) and
// return hipGetLastError(). This file must not include torch headers. It runs on AMD GPUs
// (64-lane wavefronts) and, translated to CUDA by the arena, on NVIDIA GPUs (32-lane warps):
// take the wavefront size from warpSize / hipDeviceAttributeWarpSize, never a constant.
//
// Baseline: direct convolution, one thread per output element, nine bounds-checked loads of x
// and nine of the weight per input channel, scalar float32 FMAs (no reuse of x across output
// channels, no matrix cores).
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;

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
__global__ void conv3x3_direct(const T* __restrict__ x, const T* __restrict__ wt,
                               const T* __restrict__ bias, T* __restrict__ y, int64_t total,
                               int64_t C, int64_t K, int64_t H, int64_t W) {
  const int64_t o = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= total) return;
  const int64_t w = o % W;
  const int64_t h = (o / W) % H;
  const int64_t k = (o / (W * H)) % K;
  const int64_t n = o / (W * H * K);
  float acc = to_float(bias[k]);
  for (int64_t c = 0; c < C; ++c) {
    const T* plane = x + (n * C + c) * H * W;
    const T* f = wt + (k * C + c) * 9;
    for (int i = 0; i < 3; ++i) {
      const int64_t r = h + i - 1;
      if (r < 0 || r >= H) continue;
      for (int j = 0; j < 3; ++j) {
        const int64_t s = w + j - 1;
        if (s < 0 || s >= W) continue;
        acc += to_float(f[i * 3 + j]) * to_float(plane[r * W + s]);
      }
    }
  }
  y[o] = from_float<T>(acc);
}

template <typename T>
int launch(const void* x, const void* w, const void* b, void* y, int64_t N, int64_t C, int64_t K,
           int64_t H, int64_t W, hipStream_t stream) {
  const int64_t total = N * K * H * W;
  const int64_t blocks = (total + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(conv3x3_direct<T>, dim3(static_cast<unsigned>(blocks)), dim3(kThreads), 0,
                     stream, static_cast<const T*>(x), static_cast<const T*>(w),
                     static_cast<const T*>(b), static_cast<T*>(y), total, C, K, H, W);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_conv2d_3x3(const void* x, const void* weight, const void* bias, void* y,
                              int64_t N, int64_t C, int64_t K, int64_t H, int64_t W, int dtype,
                              void* stream) {
  if (N <= 0 || K <= 0 || H <= 0 || W <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 1: return launch<__half>(x, weight, bias, y, N, C, K, H, W, s);
    case 2: return launch<bf16_t>(x, weight, bias, y, N, C, K, H, W, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
