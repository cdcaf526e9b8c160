// cuda2cuda/depthwise_conv2d: y[n, c, h, v] = sum_{dy, dx < K} w[c, dy, dx] *
// x[n, c, h + dy - K/2, v + dx - K/2] (taps outside the image are zero), float32 accumulation.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_depthwise_conv2d(const void* x, const void* w, void* y, int64_t N,
//                                       int64_t C, int64_t H, int64_t W, int64_t K,
//                                       int dtype, void* stream);
// x and y are contiguous N x C x H x W (NCHW) device arrays, w a contiguous C x K x K array,
// all of one dtype (0 float32, 1 float16, 2 bfloat16); K is 3, 5 or 7, stride 1, padding
// K / 2. Launch on `stream` (a cudaStream_t) and return cudaGetLastError() (0 when the launch
// went fine). This file must not include torch headers.
//
// Baseline: one thread per output element, which reads its K x K window and the filter from
// global memory, checking the image bounds for every tap.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;

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

template <typename T>
__global__ void depthwise_outputs(const T* __restrict__ x, const T* __restrict__ w,
                                  T* __restrict__ y, int64_t total, int64_t C, int64_t H,
                                  int64_t W, int K) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= total) return;
  const int64_t v = i % W;
  const int64_t h = (i / W) % H;
  const int64_t plane = i / (W * H);  // n * C + c
  const int64_t c = plane % C;
  const T* in = x + plane * H * W;
  const T* filter = w + c * K * K;
  const int pad = K / 2;
  float acc = 0.f;
  for (int dy = 0; dy < K; ++dy) {
    const int64_t hh = h + dy - pad;
    if (hh < 0 || hh >= H) continue;
    for (int dx = 0; dx < K; ++dx) {
      const int64_t vv = v + dx - pad;
      if (vv < 0 || vv >= W) continue;
      acc += to_float(in[hh * W + vv]) * to_float(filter[dy * K + dx]);
    }
  }
  y[i] = from_float<T>(acc);
}

template <typename T>
int launch(const void* x, const void* w, void* y, int64_t N, int64_t C, int64_t H, int64_t W,
           int K, cudaStream_t stream) {
  const int64_t total = N * C * H * W;
  const int64_t blocks = (total + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
  depthwise_outputs<T><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      static_cast<const T*>(x), static_cast<const T*>(w), static_cast<T*>(y), total, C, H, W, K);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace

extern "C" int aka_depthwise_conv2d(const void* x, const void* w, void* y, int64_t N, int64_t C,
                                    int64_t H, int64_t W, int64_t K, int dtype, void* stream) {
  if (N <= 0 || C <= 0 || H <= 0 || W <= 0) return 0;
  if (K != 3 && K != 5 && K != 7) return static_cast<int>(cudaErrorInvalidValue);
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  const int k = static_cast<int>(K);
  switch (dtype) {
    case 0: return launch<float>(x, w, y, N, C, H, W, k, s);
    case 1: return launch<__half>(x, w, y, N, C, H, W, k, s);
    case 2: return launch<__nv_bfloat16>(x, w, y, N, C, H, W, k, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
