// cuda2cuda/cumsum, solution: a block per row, scanning the row tile by tile with a carry.
//
// Launcher contract as in the baseline (binding.cpp declares it):
//   extern "C" int aka_cumsum(const void* x, void* y, int64_t M, int64_t N, int dtype,
//                             void* stream);
//
// The baseline gives each row to one thread: a warp's loads and stores touch 32 rows (32
// cache lines for 64-128 useful bytes), and the row's elements are visited one after another.
// Here a block of up to 512 threads owns a row and walks it in tiles of (threads x one 16-byte
// pack): each thread scans its pack in registers, the pack totals are scanned across the warp
// with __shfl_up_sync and across warps through a small shared array (double-buffered, so two
// barriers per tile suffice), and a running carry links the tiles. The next tile's pack is
// loaded before the current one is scanned, so two loads per thread are in flight. Loads and
// stores are whole cache lines per warp. Short rows get a smaller block (whole warps, at least
// one pack per thread). 16-byte packs need N to be a multiple of the pack width and x, y
// 16-byte aligned; the scalar path (pack width 1) covers the rest.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kMaxThreads = 512;
constexpr int kMaxWarps = 64;  // kMaxThreads / at least 8 lanes

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

template <typename T, int VEC>
struct alignas(sizeof(T) * VEC) Pack {
  T v[VEC];
};

template <typename T, int VEC>
__device__ __forceinline__ Pack<T, VEC> load_pack(const T* in, int64_t col, int64_t N) {
  Pack<T, VEC> p;
  if (col < N) {  // N is a multiple of VEC, so the pack is whole
    p = *reinterpret_cast<const Pack<T, VEC>*>(in + col);
  } else {
#pragma unroll
    for (int k = 0; k < VEC; ++k) p.v[k] = from_float<T>(0.f);
  }
  return p;
}

// Inclusive scan over the warp (lanes below `offset` keep their value at each step).
__device__ __forceinline__ float warp_inclusive_scan(float v, int lane) {
  for (int offset = 1; offset < warpSize; offset *= 2) {
    const float other = __shfl_up_sync(0xffffffffu, v, offset);
    if (lane >= offset) v += other;
  }
  return v;
}

template <typename T, int VEC>
__global__ void cumsum_rows(const T* __restrict__ x, T* __restrict__ y, int64_t N) {
  __shared__ float warp_total[2][kMaxWarps];
  const T* in = x + static_cast<int64_t>(blockIdx.x) * N;
  T* out = y + static_cast<int64_t>(blockIdx.x) * N;
  const int lane = threadIdx.x % warpSize;
  const int wid = threadIdx.x / warpSize;
  const int warps = blockDim.x / warpSize;  // the launcher uses whole warps
  const int64_t tile = static_cast<int64_t>(blockDim.x) * VEC;
  const int64_t mine = static_cast<int64_t>(threadIdx.x) * VEC;

  float carry = 0.f;  // the sum of all earlier tiles
  int buf = 0;
  Pack<T, VEC> cur = load_pack<T, VEC>(in, mine, N);
  for (int64_t base = 0; base < N; base += tile, buf ^= 1) {
    const Pack<T, VEC> next = load_pack<T, VEC>(in, base + tile + mine, N);
    float v[VEC];
    v[0] = to_float(cur.v[0]);
#pragma unroll
    for (int k = 1; k < VEC; ++k) v[k] = v[k - 1] + to_float(cur.v[k]);
    const float total = v[VEC - 1];
    const float incl = warp_inclusive_scan(total, lane);
    if (lane == warpSize - 1) warp_total[buf][wid] = incl;
    __syncthreads();
    if (wid == 0) {
      const float w = lane < warps ? warp_total[buf][lane] : 0.f;
      const float w_incl = warp_inclusive_scan(w, lane);
      if (lane < warps) warp_total[buf][lane] = w_incl;
    }
    __syncthreads();
    // The other buffer is written next tile, after its first barrier: by then every thread
    // has read this one.
    const float before = carry + (wid > 0 ? warp_total[buf][wid - 1] : 0.f) + (incl - total);
    const int64_t col = base + mine;
    if (col < N) {
      Pack<T, VEC> p;
#pragma unroll
      for (int k = 0; k < VEC; ++k) p.v[k] = from_float<T>(before + v[k]);
      *reinterpret_cast<Pack<T, VEC>*>(out + col) = p;
    }
    carry += warp_total[buf][warps - 1];
    cur = next;
  }
}

template <typename T, int VEC>
int launch_vec(const T* x, T* y, int64_t M, int64_t N, int warp, cudaStream_t stream) {
  if (M > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
  // One pack per thread per tile; short rows get fewer (whole) warps.
  int64_t threads = (N + VEC - 1) / VEC;
  threads = (threads + warp - 1) / warp * warp;
  if (threads > kMaxThreads) threads = kMaxThreads;
  if (threads / warp > warp || threads / warp > kMaxWarps) {
    return static_cast<int>(cudaErrorInvalidValue);  // the warp totals must fit one warp
  }
  cumsum_rows<T, VEC><<<static_cast<unsigned>(M), static_cast<unsigned>(threads), 0, stream>>>(
      x, y, N);
  return static_cast<int>(cudaGetLastError());
}

template <typename T>
int launch(const void* xv, void* yv, int64_t M, int64_t N, cudaStream_t stream) {
  int device = 0, warp = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err == cudaSuccess) err = cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device);
  if (err != cudaSuccess) return static_cast<int>(err);
  if (warp <= 0) return static_cast<int>(cudaErrorInvalidValue);
  const T* x = static_cast<const T*>(xv);
  T* y = static_cast<T*>(yv);
  constexpr int kVec = 16 / static_cast<int>(sizeof(T));
  const bool aligned = reinterpret_cast<uintptr_t>(x) % 16 == 0 &&
                       reinterpret_cast<uintptr_t>(y) % 16 == 0 && N % kVec == 0;
  return aligned ? launch_vec<T, kVec>(x, y, M, N, warp, stream)
                 : launch_vec<T, 1>(x, y, M, N, warp, stream);
}

}  // namespace

extern "C" int aka_cumsum(const void* x, void* y, int64_t M, int64_t N, int dtype, void* stream) {
  if (M <= 0 || N <= 0) return 0;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, y, M, N, s);
    case 1: return launch<__half>(x, y, M, N, s);
    case 2: return launch<__nv_bfloat16>(x, y, M, N, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
