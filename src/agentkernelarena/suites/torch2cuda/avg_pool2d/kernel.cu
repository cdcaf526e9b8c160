// torch2cuda/avg_pool2d: out[p, i, j] = the mean of the 3 x 3 window of x centred on (2i, 2j)
// over its positions inside the image (stride 2, padding 1, padding not counted), in float32.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_avg_pool2d(const void* x, void* out, int64_t planes, int64_t H,
//                                 int64_t W, int dtype, void* stream);
// x is a contiguous planes x H x W device array (planes = N * C), out a contiguous
// planes x Ho x Wo array (Ho = (H - 1) / 2 + 1, Wo = (W - 1) / 2 + 1), of one dtype
// (0 float32, 1 float16, 2 bfloat16); launch on `stream` (a cudaStream_t) and return
// cudaGetLastError() (0 when the launch went fine). This file must not include torch headers.
//
// This is a starting point that is correct and deliberately simple: one thread per output
// element, which splits its flat index and reads its (up to) nine inputs one by one. The task
// is measured against PyTorch eager (baseline.py).
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
__global__ void avg_pool_outputs(const T* __restrict__ x, T* __restrict__ out, int64_t total,
                                 int64_t H, int64_t W, int64_t Ho, int64_t Wo) {
  const int64_t o = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= total) return;
  const int64_t j = o % Wo;
  const int64_t i = (o / Wo) % Ho;
  const int64_t p = o / (Wo * Ho);
  const T* plane = x + p * H * W;
  float sum = 0.f;
  int count = 0;
  for (int64_t r = 2 * i - 1; r <= 2 * i + 1; ++r) {
    for (int64_t c = 2 * j - 1; c <= 2 * j + 1; ++c) {
      if (r >= 0 && r < H && c >= 0 && c < W) {
        sum += to_float(plane[r * W + c]);
        ++count;
      }
    }
  }
  out[o] = from_float<T>(sum / static_cast<float>(count));
}

template <typename T>
int launch(const void* x, void* out, int64_t planes, int64_t H, int64_t W, cudaStream_t stream) {
  const int64_t Ho = (H - 1) / 2 + 1, Wo = (W - 1) / 2 + 1;
  const int64_t total = planes * Ho * Wo;
  const int64_t blocks = (total + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
  avg_pool_outputs<T><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      static_cast<const T*>(x), static_cast<T*>(out), total, H, W, Ho, Wo);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace

extern "C" int aka_avg_pool2d(const void* x, void* out, int64_t planes, int64_t H, int64_t W,
                              int dtype, void* stream) {
  if (planes <= 0 || H <= 0 || W <= 0) return 0;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, out, planes, H, W, s);
    case 1: return launch<__half>(x, out, planes, H, W, s);
    case 2: return launch<__nv_bfloat16>(x, out, planes, H, W, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
