// torch2hip/conv2d_3x3_relu: a 3 x 3 convolution (stride 1, zero padding 1) with bias, then
// ReLU, NCHW: y[n, o, i, j] = relu(b[o] + sum_{c, di, dj} w[o, c, di, dj] *
// x[n, c, i + di - 1, j + dj - 1]), in float32.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_conv2d_3x3_relu(const void* x, const void* w, const void* b, void* y,
//                                      int64_t N, int64_t Cin, int64_t Cout, int64_t H,
//                                      int64_t W, int dtype, void* stream);
// x is a contiguous N x Cin x H x W device array, w Cout x Cin x 3 x 3, b Cout values, y
// N x Cout x H x W, one dtype (1 float16, 2 bfloat16); Cin and Cout are at most 64 in this
// task's configurations. Launch on `stream` (a hipStream_t) and return hipGetLastError().
// This file must not include torch headers. It runs on AMD GPUs (64-lane wavefronts) and,
// translated to CUDA by the arena, on NVIDIA GPUs (32-lane warps).
//
// This is a starting point that is correct and deliberately simple: one thread per output
// element, which recovers (n, o, i, j) from a flat 64-bit index and loads every tap and weight
// from global memory. The task is measured against PyTorch eager (baseline.py).
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

constexpr int kThreads = 256;

template <typename T>
__global__ void conv3x3_relu_simple(const T* __restrict__ x, const T* __restrict__ w,
                                    const T* __restrict__ b, T* __restrict__ y, int64_t N,
                                    int64_t Cin, int64_t Cout, int64_t H, int64_t W) {
  const int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= N * Cout * H * W) return;
  const int64_t j = idx % W;
  const int64_t i = (idx / W) % H;
  const int64_t o = (idx / (W * H)) % Cout;
  const int64_t n = idx / (W * H * Cout);
  float acc = to_float(b[o]);
  for (int64_t c = 0; c < Cin; ++c) {
    const T* xp = x + (n * Cin + c) * H * W;
    const T* wp = w + (o * Cin + c) * 9;
    for (int di = 0; di < 3; ++di) {
      const int64_t r = i + di - 1;
      if (r < 0 || r >= H) continue;
      for (int dj = 0; dj < 3; ++dj) {
        const int64_t s = j + dj - 1;
        if (s < 0 || s >= W) continue;
        acc += to_float(wp[di * 3 + dj]) * to_float(xp[r * W + s]);
      }
    }
  }
  y[idx] = from_float<T>(fmaxf(acc, 0.f));
}

template <typename T>
int launch(const void* x, const void* w, const void* b, void* y, int64_t N, int64_t Cin,
           int64_t Cout, int64_t H, int64_t W, hipStream_t stream) {
  const int64_t blocks = (N * Cout * H * W + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(conv3x3_relu_simple<T>, dim3(static_cast<unsigned>(blocks)), dim3(kThreads),
                     0, stream, static_cast<const T*>(x), static_cast<const T*>(w),
                     static_cast<const T*>(b), static_cast<T*>(y), N, Cin, Cout, H, W);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_conv2d_3x3_relu(const void* x, const void* w, const void* b, void* y,
                                   int64_t N, int64_t Cin, int64_t Cout, int64_t H, int64_t W,
                                   int dtype, void* stream) {
  if (N <= 0 || Cin <= 0 || Cout <= 0 || H <= 0 || W <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 1: return launch<__half>(x, w, b, y, N, Cin, Cout, H, W, s);
    case 2: return launch<bf16_t>(x, w, b, y, N, Cin, Cout, H, W, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
