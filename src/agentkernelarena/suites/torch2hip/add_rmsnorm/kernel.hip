// torch2hip/add_rmsnorm: h = x + residual, y[m, n] = h[m, n] / sqrt(mean_n(h[m, :]^2) + eps)
// * w[n], all in float32 (h is not rounded to the storage dtype).
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_add_rmsnorm(const void* x, const void* residual, const void* w, void* y,
//                                  int64_t M, int64_t N, float eps, int dtype, void* stream);
// x, residual and y are contiguous M x N row-major device arrays, w a vector of length N, all
// of one dtype (0 float32, 1 float16, 2 bfloat16); eps is 1e-6; launch on `stream` (a
// hipStream_t) and return hipGetLastError(). This file must not include torch headers. It
// runs on AMD GPUs (64-lane wavefronts) and, translated to CUDA by the arena, on NVIDIA GPUs
// (32-lane warps).
//
// This is a starting point that is correct and deliberately simple: one thread per row, which
// walks the row twice. The task is measured against PyTorch eager (baseline.py).
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
__global__ void add_rmsnorm_simple(const T* __restrict__ x, const T* __restrict__ residual,
                                   const T* __restrict__ w, T* __restrict__ y, int64_t M,
                                   int64_t N, float eps) {
  const int64_t m = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (m >= M) return;
  const T* xr = x + m * N;
  const T* rr = residual + m * N;
  float ss = 0.f;
  for (int64_t n = 0; n < N; ++n) {
    const float h = to_float(xr[n]) + to_float(rr[n]);
    ss += h * h;
  }
  const float r = rsqrtf(ss / static_cast<float>(N) + eps);
  for (int64_t n = 0; n < N; ++n) {
    const float h = to_float(xr[n]) + to_float(rr[n]);
    y[m * N + n] = from_float<T>(h * r * to_float(w[n]));
  }
}

template <typename T>
int launch(const void* x, const void* residual, const void* w, void* y, int64_t M, int64_t N,
           float eps, hipStream_t stream) {
  const int64_t blocks = (M + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(add_rmsnorm_simple<T>, dim3(static_cast<unsigned>(blocks)), dim3(kThreads),
                     0, stream, static_cast<const T*>(x), static_cast<const T*>(residual),
                     static_cast<const T*>(w), static_cast<T*>(y), M, N, eps);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_add_rmsnorm(const void* x, const void* residual, const void* w, void* y,
                               int64_t M, int64_t N, float eps, int dtype, void* stream) {
  if (M <= 0 || N <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, residual, w, y, M, N, eps, s);
    case 1: return launch<__half>(x, residual, w, y, M, N, eps, s);
    case 2: return launch<bf16_t>(x, residual, w, y, M, N, eps, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
