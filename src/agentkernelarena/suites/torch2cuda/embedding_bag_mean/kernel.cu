// torch2cuda/embedding_bag_mean: out[b, :] = the mean of the embedding rows
// weight[indices[j], :] for the j of bag b (offsets[b] <= j < offsets[b + 1], the last bag up
// to the end of indices), zeros for an empty bag; summed in float32.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_embedding_bag_mean(const void* weight, const void* indices,
//                                         const void* offsets, void* out, int64_t D, int64_t B,
//                                         int64_t total, int dtype, void* stream);
// weight is a contiguous V x D device array and out a contiguous B x D array of one dtype
// (0 float32, 1 float16, 2 bfloat16); indices holds `total` int64 row ids, offsets B
// non-decreasing int64 bag starts (offsets[0] = 0). Launch on `stream` (a cudaStream_t) and
// return cudaGetLastError() (0 when the launch went fine). This file must not include torch
// headers.
//
// This is a starting point that is correct and deliberately simple: one thread per output
// element (bag, feature), which walks its bag's indices and reads one element of each row. The
// task is measured against PyTorch eager (baseline.py).
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
__global__ void bag_mean_elements(const T* __restrict__ weight,
                                  const int64_t* __restrict__ indices,
                                  const int64_t* __restrict__ offsets, T* __restrict__ out,
                                  int64_t D, int64_t B, int64_t total) {
  const int64_t o = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= B * D) return;
  const int64_t b = o / D;
  const int64_t d = o - b * D;
  const int64_t start = offsets[b];
  const int64_t end = b + 1 < B ? offsets[b + 1] : total;
  float sum = 0.f;
  for (int64_t j = start; j < end; ++j) sum += to_float(weight[indices[j] * D + d]);
  out[o] = from_float<T>(end > start ? sum / static_cast<float>(end - start) : 0.f);
}

template <typename T>
int launch(const void* weight, const void* indices, const void* offsets, void* out, int64_t D,
           int64_t B, int64_t total, cudaStream_t stream) {
  const int64_t blocks = (B * D + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
  bag_mean_elements<T><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      static_cast<const T*>(weight), static_cast<const int64_t*>(indices),
      static_cast<const int64_t*>(offsets), static_cast<T*>(out), D, B, total);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace

extern "C" int aka_embedding_bag_mean(const void* weight, const void* indices,
                                      const void* offsets, void* out, int64_t D, int64_t B,
                                      int64_t total, int dtype, void* stream) {
  if (B <= 0 || D <= 0) return 0;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(weight, indices, offsets, out, D, B, total, s);
    case 1: return launch<__half>(weight, indices, offsets, out, D, B, total, s);
    case 2: return launch<__nv_bfloat16>(weight, indices, offsets, out, D, B, total, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
