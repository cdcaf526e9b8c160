// cuda2cuda/embedding_bag_sum: out[b, :] = sum of weight[indices[j], :] over the bag's j.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_embedding_bag_sum(const void* weight, const void* indices,
//                                        const void* offsets, void* out, int64_t V,
//                                        int64_t D, int64_t L, int64_t B, int dtype,
//                                        void* stream);
// weight: a contiguous row-major V x D device table; indices: L int64 values in [0, V);
// offsets: B int64 bag starts (offsets[0] = 0, non-decreasing, <= L; bag b is
// [offsets[b], offsets[b + 1]), the last bag ends at L, bags may be empty); out: B x D.
// weight and out share one dtype (0 float32, 1 float16, 2 bfloat16); sums in float32, each
// output rounded once. L, B, D >= 1 when the launcher is called. Launch on `stream` (a
// cudaStream_t) and return cudaGetLastError() (0 when the launch went fine). This file must
// not include torch headers.
//
// Baseline: one thread per output element (bag, column), which walks the bag's indices and
// adds one element of each named row.
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
__global__ void bag_sum_elements(const T* __restrict__ weight, const int64_t* __restrict__ indices,
                                 const int64_t* __restrict__ offsets, T* __restrict__ out,
                                 int64_t D, int64_t L, int64_t B) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= B * D) return;
  const int64_t bag = i / D;
  const int64_t col = i % D;
  const int64_t start = offsets[bag];
  const int64_t end = bag + 1 < B ? offsets[bag + 1] : L;
  float acc = 0.f;
  for (int64_t j = start; j < end; ++j) acc += to_float(weight[indices[j] * D + col]);
  out[i] = from_float<T>(acc);
}

template <typename T>
int launch(const void* weight, const void* indices, const void* offsets, void* out, int64_t D,
           int64_t L, int64_t B, cudaStream_t stream) {
  const int64_t blocks = (B * D + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
  bag_sum_elements<T><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      static_cast<const T*>(weight), static_cast<const int64_t*>(indices),
      static_cast<const int64_t*>(offsets), static_cast<T*>(out), D, L, B);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace

extern "C" int aka_embedding_bag_sum(const void* weight, const void* indices, const void* offsets,
                                     void* out, int64_t V, int64_t D, int64_t L, int64_t B,
                                     int dtype, void* stream) {
  (void)V;
  if (B <= 0 || D <= 0) return 0;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(weight, indices, offsets, out, D, L, B, s);
    case 1: return launch<__half>(weight, indices, offsets, out, D, L, B, s);
    case 2: return launch<__nv_bfloat16>(weight, indices, offsets, out, D, L, B, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
