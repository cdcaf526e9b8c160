// torch2cuda/causal_depthwise_conv1d: out[b, c, t] = silu(bias[c] + sum_{i < K} weight[c, i] *
// x[b, c, t - (K - 1) + i]), x = 0 before t = 0, in float32 (Mamba's short causal convolution).
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_causal_conv1d_silu(const void* x, const void* weight, const void* bias,
//                                         void* out, int64_t B, int64_t C, int64_t L,
//                                         int64_t K, int dtype, void* stream);
// x and out are contiguous B x C x L device arrays (channels first), weight a contiguous C x K
// array and bias a vector of C, all of one dtype (0 float32, 1 float16, 2 bfloat16). Launch on
// `stream` (a cudaStream_t) and return cudaGetLastError() (0 when the launch went fine). This
// file must not include torch headers.
//
// This is a starting point that is correct and deliberately simple: one thread per output
// element, which reads its K inputs and K weights. The task is measured against PyTorch eager
// (baseline.py).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace {

__device__ __forceinline__ float to_float(float v) { return v; }
__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }

template <typename T>
__device__ __forceinline__ T from_float(float v);
template <>
__device__ __forceinline__ float from_float<float>(float v) { return v; }
template <>
__device__ __forceinline__ __half from_float<__half>(float v) { return __float2half_rn(v); }
template <>
__device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) {
  return __float2bfloat16_rn(v);
}

constexpr int kThreads = 256;

template <typename T>
__global__ void causal_conv_elements(const T* __restrict__ x, const T* __restrict__ weight,
                                     const T* __restrict__ bias, T* __restrict__ out,
                                     int64_t total, int64_t C, int64_t L, int64_t K) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= total) return;
  const int64_t t = i % L;
  const int64_t c = (i / L) % C;
  float acc = to_float(bias[c]);
  for (int64_t k = 0; k < K; ++k) {
    const int64_t src = t - (K - 1) + k;
    if (src >= 0) acc += to_float(weight[c * K + k]) * to_float(x[i - t + src]);
  }
  out[i] = from_float<T>(acc / (1.f + expf(-acc)));
}

template <typename T>
int launch(const void* x, const void* weight, const void* bias, void* out, int64_t B, int64_t C,
           int64_t L, int64_t K, cudaStream_t stream) {
  const int64_t total = B * C * L;
  const int64_t blocks = (total + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
  causal_conv_elements<T><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      static_cast<const T*>(x), static_cast<const T*>(weight), static_cast<const T*>(bias),
      static_cast<T*>(out), total, C, L, K);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace

extern "C" int aka_causal_conv1d_silu(const void* x, const void* weight, const void* bias,
                                      void* out, int64_t B, int64_t C, int64_t L, int64_t K,
                                      int dtype, void* stream) {
  if (B <= 0 || C <= 0 || L <= 0) return 0;
  if (K <= 0) return static_cast<int>(cudaErrorInvalidValue);
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, weight, bias, out, B, C, L, K, s);
    case 1: return launch<__half>(x, weight, bias, out, B, C, L, K, s);
    case 2: return launch<__nv_bfloat16>(x, weight, bias, out, B, C, L, K, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
