// torch2hip/swiglu: the gated activation of a LLaMA-style MLP with a fused gate/up projection,
// out[m, n] = silu(x[m, n]) * x[m, N + n], silu(a) = a / (1 + exp(-a)), in float32.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_swiglu(const void* x, void* out, int64_t M, int64_t N, int dtype,
//                             void* stream);
// x is a contiguous M x 2N row-major device array (the B x S x 2N activation, flattened), out
// M x N, same dtype (0 float32, 1 float16, 2 bfloat16); launch on `stream` (a hipStream_t) and
// return hipGetLastError(). This file must not include torch headers. It runs on AMD GPUs
// (64-lane wavefronts) and, translated to CUDA by the arena, on NVIDIA GPUs (32-lane warps).
//
// This is a starting point that is correct and deliberately simple: one thread per output
// element, which recovers its (row, column) from a flat 64-bit index. The task is measured
// against PyTorch eager (baseline.py).
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
__global__ void swiglu_simple(const T* __restrict__ x, T* __restrict__ out, int64_t M,
                              int64_t N) {
  const int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= M * N) return;
  const int64_t m = idx / N;
  const int64_t n = idx % N;
  const float a = to_float(x[m * 2 * N + n]);
  const float b = to_float(x[m * 2 * N + N + n]);
  out[idx] = from_float<T>(a / (1.f + expf(-a)) * b);
}

template <typename T>
int launch(const void* x, void* out, int64_t M, int64_t N, hipStream_t stream) {
  const int64_t blocks = (M * N + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(swiglu_simple<T>, dim3(static_cast<unsigned>(blocks)), dim3(kThreads), 0,
                     stream, static_cast<const T*>(x), static_cast<T*>(out), M, N);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_swiglu(const void* x, void* out, int64_t M, int64_t N, int dtype,
                          void* stream) {
  if (M <= 0 || N <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, out, M, N, s);
    case 1: return launch<__half>(x, out, M, N, s);
    case 2: return launch<bf16_t>(x, out, M, N, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
