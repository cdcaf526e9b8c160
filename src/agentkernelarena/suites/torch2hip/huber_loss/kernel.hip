// torch2hip/huber_loss: the elementwise Huber loss, d = pred - target,
// out = 0.5 * d^2 where |d| < delta, delta * (|d| - 0.5 * delta) elsewhere, in float32.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_huber_loss(const void* pred, const void* target, void* out, int64_t n,
//                                 float delta, int dtype, void* stream);
// pred, target and out are contiguous device arrays of n elements of one dtype (0 float32,
// 1 float16, 2 bfloat16); delta is 0.5; launch on `stream` (a hipStream_t) and return
// hipGetLastError(). This file must not include torch headers. It runs on AMD GPUs (64-lane
// wavefronts) and, translated to CUDA by the arena, on NVIDIA GPUs (32-lane warps).
//
// This is a starting point that is correct and deliberately simple: one thread per element,
// scalar loads. The task is measured against PyTorch eager (baseline.py).
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
__global__ void huber_simple(const T* __restrict__ pred, const T* __restrict__ target,
                             T* __restrict__ out, int64_t n, float delta) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float d = to_float(pred[i]) - to_float(target[i]);
  const float a = fabsf(d);
  out[i] = from_float<T>(a < delta ? 0.5f * d * d : delta * (a - 0.5f * delta));
}

template <typename T>
int launch(const void* pred, const void* target, void* out, int64_t n, float delta,
           hipStream_t stream) {
  const int64_t blocks = (n + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(huber_simple<T>, dim3(static_cast<unsigned>(blocks)), dim3(kThreads), 0,
                     stream, static_cast<const T*>(pred), static_cast<const T*>(target),
                     static_cast<T*>(out), n, delta);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_huber_loss(const void* pred, const void* target, void* out, int64_t n,
                              float delta, int dtype, void* stream) {
  if (n <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(pred, target, out, n, delta, s);
    case 1: return launch<__half>(pred, target, out, n, delta, s);
    case 2: return launch<bf16_t>(pred, target, out, n, delta, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
