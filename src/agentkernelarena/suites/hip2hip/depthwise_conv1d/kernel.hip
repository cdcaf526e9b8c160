// hip2hip/depthwise_conv1d: the causal depthwise convolution of Mamba's block
// (causal_conv1d with SiLU), channels-first: for batch b, channel c and position l,
//   out[b, c, l] = silu(bias[c] + sum_{k < W} weight[c, k] * x[b, c, l - W + 1 + k])
// with x taken as 0 before position 0 and silu(v) = v / (1 + exp(-v)), in float32.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_causal_conv1d(const void* x, const void* weight, const void* bias,
//                                    void* out, int64_t Bt, int64_t C, int64_t L, int64_t W,
//                                    int dtype, void* stream);
// x and out are contiguous Bt x C x L device arrays, weight C x W (1 <= W <= 8), bias C, all
// of one dtype (0 float32, 1 float16, 2 bfloat16). Launch on `stream` (a hipStream_t) and
// return hipGetLastError(). This file must not include torch headers. It runs on AMD GPUs
// (64-lane wavefronts) and, translated to CUDA by the arena, on NVIDIA GPUs (32-lane warps).
//
// Baseline: one thread per output element; (channel, position) come from the flat index by
// 64-bit division, and each thread loads its W inputs and W weights one value at a time.
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
__global__ void conv_flat(const T* __restrict__ x, const T* __restrict__ weight,
                          const T* __restrict__ bias, T* __restrict__ out, int64_t total,
                          int64_t C, int64_t L, int64_t W) {
  const int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= total) return;
  const int64_t l = idx % L;
  const int64_t c = (idx / L) % C;
  float acc = to_float(bias[c]);
  for (int64_t k = 0; k < W; ++k) {
    const int64_t pos = l - (W - 1) + k;
    if (pos >= 0) acc += to_float(weight[c * W + k]) * to_float(x[idx - l + pos]);
  }
  out[idx] = from_float<T>(acc / (1.f + expf(-acc)));
}

template <typename T>
int launch(const void* x, const void* weight, const void* bias, void* out, int64_t Bt, int64_t C,
           int64_t L, int64_t W, hipStream_t stream) {
  const int64_t total = Bt * C * L;
  const int64_t blocks = (total + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(conv_flat<T>, dim3(static_cast<unsigned>(blocks)), dim3(kThreads), 0, stream,
                     static_cast<const T*>(x), static_cast<const T*>(weight),
                     static_cast<const T*>(bias), static_cast<T*>(out), total, C, L, W);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_causal_conv1d(const void* x, const void* weight, const void* bias, void* out,
                                 int64_t Bt, int64_t C, int64_t L, int64_t W, int dtype,
                                 void* stream) {
  if (Bt <= 0 || C <= 0 || L <= 0) return 0;
  if (W < 1 || W > 8) return static_cast<int>(hipErrorInvalidValue);
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, weight, bias, out, Bt, C, L, W, s);
    case 1: return launch<__half>(x, weight, bias, out, Bt, C, L, W, s);
    case 2: return launch<bf16_t>(x, weight, bias, out, Bt, C, L, W, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
