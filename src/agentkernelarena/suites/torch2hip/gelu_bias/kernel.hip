// torch2hip/gelu_bias: y[m, n] = gelu_tanh(x[m, n] + b[n]) with
// gelu_tanh(h) = 0.5 * h * (1 + tanh(sqrt(2 / pi) * (h + 0.044715 * h^3))), in float32.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_gelu_bias(const void* x, const void* b, void* y, int64_t M, int64_t N,
//                                int dtype, void* stream);
// x is a contiguous M x N row-major device array, b a vector of length N, y an M x N array, all
// of one dtype (0 float32, 1 float16, 2 bfloat16); launch on `stream` (a hipStream_t) and
// return hipGetLastError(). This file must not include torch headers. It runs on AMD GPUs
// (64-lane wavefronts) and, translated to CUDA by the arena, on NVIDIA GPUs (32-lane warps).
//
// This is a starting point that is correct and deliberately simple: one thread per element,
// which recovers its column from a flat 64-bit index. The task is measured against PyTorch
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
__global__ void gelu_bias_simple(const T* __restrict__ x, const T* __restrict__ b,
                                 T* __restrict__ y, int64_t M, int64_t N) {
  const int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= M * N) return;
  const float h = to_float(x[idx]) + to_float(b[idx % N]);
  const float u = 0.7978845608028654f * (h + 0.044715f * h * h * h);
  y[idx] = from_float<T>(0.5f * h * (1.f + tanhf(u)));
}

template <typename T>
int launch(const void* x, const void* b, void* y, int64_t M, int64_t N, hipStream_t stream) {
  const int64_t blocks = (M * N + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(gelu_bias_simple<T>, dim3(static_cast<unsigned>(blocks)), dim3(kThreads), 0,
                     stream, static_cast<const T*>(x), static_cast<const T*>(b),
                     static_cast<T*>(y), M, N);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_gelu_bias(const void* x, const void* b, void* y, int64_t M, int64_t N,
                             int dtype, void* stream) {
  if (M <= 0 || N <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, b, y, M, N, s);
    case 1: return launch<__half>(x, b, y, M, N, s);
    case 2: return launch<bf16_t>(x, b, y, M, N, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
