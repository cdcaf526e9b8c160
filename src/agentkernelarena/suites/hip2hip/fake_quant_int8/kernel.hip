// hip2hip/fake_quant_int8: per-row symmetric int8 quantize-dequantize (the "fake quantization"
// of quantization-aware training and of W8A8 accuracy studies), in float32:
//   s_m = max(max_n |x[m, n]|, 1e-8) / 127
//   y[m, n] = clamp(rint(x[m, n] / s_m), -127, 127) * s_m   (stored in x's dtype)
// with IEEE division (no reciprocal approximations) and round-half-to-even (rintf), so that
// the result matches torch.round bit for bit.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_fake_quant_int8(const void* x, void* y, int64_t M, int64_t N, int dtype,
//                                      void* stream);
// x and y are contiguous M x N row-major device arrays of one dtype (0 float32, 1 float16,
// 2 bfloat16); launch on `stream` (a hipStream_t) and return hipGetLastError(). This file must
// not include torch headers. It runs on AMD GPUs (64-lane wavefronts) and, translated to CUDA
// by the arena, on NVIDIA GPUs (32-lane warps): take the wavefront size from warpSize /
// hipDeviceAttributeWarpSize, never a constant.
//
// Baseline: one block of 256 threads per row, element by element. The row is read twice (the
// absolute maximum, then the quantization) and the maximum is a shared-memory tree, a barrier
// per level.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;

// bfloat16 as raw bits: portable across ROCm versions and the translation to CUDA.
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

template <typename T>
__global__ void fake_quant_rows(const T* __restrict__ x, T* __restrict__ y, int64_t N) {
  __shared__ float red[kThreads];
  const int tid = threadIdx.x;
  const int64_t offset = static_cast<int64_t>(blockIdx.x) * N;

  float m = 0.f;
  for (int64_t j = tid; j < N; j += blockDim.x) m = fmaxf(m, fabsf(to_float(x[offset + j])));
  red[tid] = m;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] = fmaxf(red[tid], red[tid + s]);
    __syncthreads();
  }
  const float scale = fmaxf(red[0], 1e-8f) / 127.f;

  for (int64_t j = tid; j < N; j += blockDim.x) {
    const float q = fminf(fmaxf(rintf(to_float(x[offset + j]) / scale), -127.f), 127.f);
    y[offset + j] = from_float<T>(q * scale);
  }
}

template <typename T>
int launch(const void* x, void* y, int64_t M, int64_t N, hipStream_t stream) {
  hipLaunchKernelGGL(fake_quant_rows<T>, dim3(static_cast<unsigned>(M)), dim3(kThreads), 0,
                     stream, static_cast<const T*>(x), static_cast<T*>(y), N);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_fake_quant_int8(const void* x, void* y, int64_t M, int64_t N, int dtype,
                                   void* stream) {
  if (M <= 0 || N <= 0) return 0;
  if (M > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, y, M, N, s);
    case 1: return launch<__half>(x, y, M, N, s);
    case 2: return launch<bf16_t>(x, y, M, N, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
