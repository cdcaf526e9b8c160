// hip2hip/embedding_bag_sum: the sum mode of nn.EmbeddingBag with CSR offsets (DLRM-style
// sparse features): out[b, :] = sum of table[indices[j], :] over offsets[b] <= j <
// offsets[b + 1], accumulated in float32 and stored in the table's dtype (zeros for an empty
// bag).
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_embedding_bag_sum(const void* table, const void* indices,
//                                        const void* offsets, void* out, int64_t B, int64_t D,
//                                        int64_t V, int dtype, void* stream);
// table is a contiguous V x D device array and out B x D, one dtype (0 float32, 1 float16,
// 2 bfloat16); indices (int64, values in [0, V)) and offsets (int64, B + 1 entries,
// non-decreasing, offsets[0] = 0). Launch on `stream` (a hipStream_t) and return
// hipGetLastError(). This file must not include torch headers. It runs on AMD GPUs (64-lane
// wavefronts) and, translated to CUDA by the arena, on NVIDIA GPUs (32-lane warps).
//
// Baseline: one thread per output element, (bag, column) from the flat index by 64-bit
// division; the thread walks the bag one index at a time, loading one element of each row.
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
__global__ void bag_sum_flat(const T* __restrict__ table, const int64_t* __restrict__ indices,
                             const int64_t* __restrict__ offsets, T* __restrict__ out,
                             int64_t B, int64_t D) {
  const int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= B * D) return;
  const int64_t b = idx / D;
  const int64_t d = idx % D;
  float acc = 0.f;
  for (int64_t j = offsets[b]; j < offsets[b + 1]; ++j) acc += to_float(table[indices[j] * D + d]);
  out[idx] = from_float<T>(acc);
}

template <typename T>
int launch(const void* table, const void* indices, const void* offsets, void* out, int64_t B,
           int64_t D, hipStream_t stream) {
  const int64_t blocks = (B * D + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(bag_sum_flat<T>, dim3(static_cast<unsigned>(blocks)), dim3(kThreads), 0,
                     stream, static_cast<const T*>(table), static_cast<const int64_t*>(indices),
                     static_cast<const int64_t*>(offsets), static_cast<T*>(out), B, D);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_embedding_bag_sum(const void* table, const void* indices, const void* offsets,
                                     void* out, int64_t B, int64_t D, int64_t V, int dtype,
                                     void* stream) {
  (void)V;  // the indices are trusted to lie in [0, V)
  if (B <= 0 || D <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(table, indices, offsets, out, B, D, s);
    case 1: return launch<__half>(table, indices, offsets, out, B, D, s);
    case 2: return launch<bf16_t>(table, indices, offsets, out, B, D, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
