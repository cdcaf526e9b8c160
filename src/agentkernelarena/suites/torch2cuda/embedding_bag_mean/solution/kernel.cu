// torch2cuda/embedding_bag_mean, solution: S lanes per bag, 16-byte row loads, four rows in
// flight.
//
// Launcher contract as in the skeleton (binding.cpp declares it):
//   extern "C" int aka_embedding_bag_mean(const void* weight, const void* indices,
//                                         const void* offsets, void* out, int64_t D, int64_t B,
//                                         int64_t total, int dtype, void* stream);
//
// A bag is owned by S lanes (the next power of two of D / VEC, at most a warp; several bags
// per warp for narrow rows). Each lane adds up VEC consecutive features of the bag's rows with
// one 16-byte load per row (when D is a multiple of VEC = 16 / sizeof(T) and the pointers are
// aligned), four rows at a time so that four loads are in flight, in index order, in float32.
// Eager computes a bag id for every index (several small kernels) and then reads the rows one
// 2- or 4-byte element per thread.
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

constexpr int kThreads = 128;

template <typename T, int N>
struct alignas(sizeof(T) * N) Pack {
  T v[N];
};

template <typename T, int VEC>
__device__ __forceinline__ void add_row(float (&acc)[VEC], const T* p) {
  if constexpr (VEC > 1) {
    const Pack<T, VEC> pk = *reinterpret_cast<const Pack<T, VEC>*>(p);
#pragma unroll
    for (int k = 0; k < VEC; ++k) acc[k] += to_float(pk.v[k]);
  } else {
    acc[0] += to_float(*p);
  }
}

template <typename T, int VEC>
__global__ void __launch_bounds__(kThreads)
    bag_mean_segments(const T* __restrict__ weight, const int64_t* __restrict__ indices,
                      const int64_t* __restrict__ offsets, T* __restrict__ out, int64_t D,
                      int64_t B, int64_t total, int S) {
  const int lane = threadIdx.x % S;
  const int64_t b = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / S;
  if (b >= B) return;  // no shuffles below: lanes may leave on their own
  const int64_t start = offsets[b];
  const int64_t end = b + 1 < B ? offsets[b + 1] : total;
  const float inv = end > start ? 1.f / static_cast<float>(end - start) : 0.f;
  for (int64_t f = static_cast<int64_t>(lane) * VEC; f < D; f += static_cast<int64_t>(S) * VEC) {
    float acc[VEC];
#pragma unroll
    for (int k = 0; k < VEC; ++k) acc[k] = 0.f;
    int64_t j = start;
    for (; j + 4 <= end; j += 4) {
      const int64_t r0 = indices[j], r1 = indices[j + 1], r2 = indices[j + 2],
                    r3 = indices[j + 3];
      float a0[VEC], a1[VEC], a2[VEC], a3[VEC];
#pragma unroll
      for (int k = 0; k < VEC; ++k) a0[k] = a1[k] = a2[k] = a3[k] = 0.f;
      add_row<T, VEC>(a0, weight + r0 * D + f);
      add_row<T, VEC>(a1, weight + r1 * D + f);
      add_row<T, VEC>(a2, weight + r2 * D + f);
      add_row<T, VEC>(a3, weight + r3 * D + f);
#pragma unroll
      for (int k = 0; k < VEC; ++k) acc[k] = acc[k] + a0[k] + a1[k] + a2[k] + a3[k];
    }
    for (; j < end; ++j) add_row<T, VEC>(acc, weight + indices[j] * D + f);
    T* o = out + b * D + f;
    if constexpr (VEC > 1) {
      Pack<T, VEC> pk;
#pragma unroll
      for (int k = 0; k < VEC; ++k) pk.v[k] = from_float<T>(acc[k] * inv);
      *reinterpret_cast<Pack<T, VEC>*>(o) = pk;
    } else {
      *o = from_float<T>(acc[0] * inv);
    }
  }
}

template <typename T, int VEC>
int launch_vec(const T* weight, const int64_t* indices, const int64_t* offsets, T* out,
               int64_t D, int64_t B, int64_t total, int warp, cudaStream_t stream) {
  const int64_t lanes = (D + VEC - 1) / VEC;
  int S = 1;
  while (S < lanes && S < warp) S *= 2;
  const int bags_per_block = kThreads / S;
  const int64_t blocks = (B + bags_per_block - 1) / bags_per_block;
  if (blocks > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
  bag_mean_segments<T, VEC><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      weight, indices, offsets, out, D, B, total, S);
  return static_cast<int>(cudaGetLastError());
}

template <typename T>
int launch(const void* wv, const void* iv, const void* ov, void* outv, int64_t D, int64_t B,
           int64_t total, cudaStream_t stream) {
  int device = 0, warp = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err == cudaSuccess) err = cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device);
  if (err != cudaSuccess) return static_cast<int>(err);
  if (warp <= 0 || kThreads % warp != 0) return static_cast<int>(cudaErrorInvalidValue);
  const T* weight = static_cast<const T*>(wv);
  const int64_t* indices = static_cast<const int64_t*>(iv);
  const int64_t* offsets = static_cast<const int64_t*>(ov);
  T* out = static_cast<T*>(outv);
  constexpr int kVec = 16 / static_cast<int>(sizeof(T));
  const bool aligned = reinterpret_cast<uintptr_t>(weight) % 16 == 0 &&
                       reinterpret_cast<uintptr_t>(out) % 16 == 0 && D % kVec == 0;
  return aligned ? launch_vec<T, kVec>(weight, indices, offsets, out, D, B, total, warp, stream)
                 : launch_vec<T, 1>(weight, indices, offsets, out, D, B, total, warp, stream);
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
