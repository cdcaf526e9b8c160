// torch2hip/instance_norm: InstanceNorm2d with affine. For each plane p = (n, c) of HW values:
// y = (x - mean) / sqrt(var + eps) * w[c] + b[c], mean and biased variance in float32.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_instance_norm(const void* x, const void* w, const void* b, void* y,
//                                    int64_t P, int64_t C, int64_t HW, float eps, int dtype,
//                                    void* stream);
// x and y hold P = N * C contiguous planes of HW values (NCHW), plane p belonging to channel
// p % C; w and b have C values; one dtype (0 float32, 1 float16, 2 bfloat16); eps is 1e-5;
// launch on `stream` (a hipStream_t) and return hipGetLastError(). This file must not include
// torch headers. It runs on AMD GPUs (64-lane wavefronts) and, translated to CUDA by the
// arena, on NVIDIA GPUs (32-lane warps).
//
// This is a starting point that is correct and deliberately simple: one thread per plane,
// which walks it three times (mean, variance, output). The task is measured against PyTorch
// eager (baseline.py).
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

constexpr int kThreads = 128;

template <typename T>
__global__ void instance_norm_simple(const T* __restrict__ x, const T* __restrict__ w,
                                     const T* __restrict__ b, T* __restrict__ y, int64_t P,
                                     int64_t C, int64_t HW, float eps) {
  const int64_t p = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= P) return;
  const T* xp = x + p * HW;
  float sum = 0.f;
  for (int64_t i = 0; i < HW; ++i) sum += to_float(xp[i]);
  const float mean = sum / static_cast<float>(HW);
  float sq = 0.f;
  for (int64_t i = 0; i < HW; ++i) {
    const float d = to_float(xp[i]) - mean;
    sq += d * d;
  }
  const float rstd = 1.f / sqrtf(sq / static_cast<float>(HW) + eps);
  const int64_t c = p % C;
  const float scale = to_float(w[c]) * rstd;
  const float shift = to_float(b[c]);
  T* yp = y + p * HW;
  for (int64_t i = 0; i < HW; ++i) yp[i] = from_float<T>((to_float(xp[i]) - mean) * scale + shift);
}

template <typename T>
int launch(const void* x, const void* w, const void* b, void* y, int64_t P, int64_t C, int64_t HW,
           float eps, hipStream_t stream) {
  const int64_t blocks = (P + kThreads - 1) / kThreads;
  hipLaunchKernelGGL(instance_norm_simple<T>, dim3(static_cast<unsigned>(blocks)), dim3(kThreads),
                     0, stream, static_cast<const T*>(x), static_cast<const T*>(w),
                     static_cast<const T*>(b), static_cast<T*>(y), P, C, HW, eps);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_instance_norm(const void* x, const void* w, const void* b, void* y, int64_t P,
                                 int64_t C, int64_t HW, float eps, int dtype, void* stream) {
  if (P <= 0 || HW <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, w, b, y, P, C, HW, eps, s);
    case 1: return launch<__half>(x, w, b, y, P, C, HW, eps, s);
    case 2: return launch<bf16_t>(x, w, b, y, P, C, HW, eps, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
