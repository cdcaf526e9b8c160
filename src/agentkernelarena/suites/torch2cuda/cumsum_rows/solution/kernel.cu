// torch2cuda/cumsum_rows, solution: one read and one write, scans in registers and shuffles.
//
// Launcher contract as in the skeleton (binding.cpp declares it):
//   extern "C" int aka_cumsum_rows(const void* x, void* y, int64_t M, int64_t N, int dtype,
//                                  void* stream);
//
// A row is owned by a segment of a warp (short rows, several rows per warp) or a block (long
// rows) and walked in tiles: each thread loads 8 consecutive elements (one 16-byte load when N
// is a multiple of 8 and the pointers are aligned), scans them serially in float32, the
// threads' totals are scanned with __shfl_up_sync (and, for a block, once more over the warps'
// totals in shared memory), and the carry of the tiles before is added. Eager casts
// to a float32 copy, scans it into another and casts back: five passes over memory, not two.
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

constexpr int kRowsThreads = 128;
constexpr int kMaxWarps = 32;
constexpr int kItems = 8;  // consecutive elements per thread: 16 bytes

template <typename T, int N>
struct alignas(sizeof(T) * N) Pack {
  T v[N];
};

// Inclusive scan over segments of S lanes (S a power of two dividing warpSize).
__device__ __forceinline__ float segment_scan(float v, int lane, int S) {
  for (int o = 1; o < S; o *= 2) {
    const float u = __shfl_up_sync(0xffffffffu, v, o, S);
    if (lane >= o) v += u;
  }
  return v;
}

template <typename T, bool kPacked>
__device__ __forceinline__ void load_items(float (&v)[kItems], const T* p, int64_t col,
                                           int64_t N) {
  if (kPacked && col + kItems <= N) {
    const Pack<T, kItems> pk = *reinterpret_cast<const Pack<T, kItems>*>(p + col);
#pragma unroll
    for (int k = 0; k < kItems; ++k) v[k] = to_float(pk.v[k]);
  } else {
#pragma unroll
    for (int k = 0; k < kItems; ++k) v[k] = col + k < N ? to_float(p[col + k]) : 0.f;
  }
}

template <typename T, bool kPacked>
__device__ __forceinline__ void store_items(const float (&v)[kItems], T* p, int64_t col,
                                            int64_t N) {
  if (kPacked && col + kItems <= N) {
    Pack<T, kItems> pk;
#pragma unroll
    for (int k = 0; k < kItems; ++k) pk.v[k] = from_float<T>(v[k]);
    *reinterpret_cast<Pack<T, kItems>*>(p + col) = pk;
  } else {
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
      if (col + k < N) p[col + k] = from_float<T>(v[k]);
    }
  }
}

// Short rows: a segment of S lanes per row (blockDim.x / S rows per block). No lane returns
// early: all of a warp's lanes take part in its shuffles.
template <typename T, bool kPacked>
__global__ void __launch_bounds__(kRowsThreads)
    cumsum_segment_rows(const T* __restrict__ x, T* __restrict__ y, int64_t M, int64_t N,
                        int S) {
  const int lane = threadIdx.x % S;
  const int64_t row = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / S;
  const bool valid = row < M;
  const T* in = x + (valid ? row : 0) * N;
  T* out = y + (valid ? row : 0) * N;
  float carry = 0.f;
  for (int64_t base = 0; base < N; base += static_cast<int64_t>(S) * kItems) {
    const int64_t col = base + static_cast<int64_t>(lane) * kItems;
    float v[kItems];
    load_items<T, kPacked>(v, in, valid ? col : N, N);
#pragma unroll
    for (int k = 1; k < kItems; ++k) v[k] += v[k - 1];
    const float inclusive = segment_scan(v[kItems - 1], lane, S);
    const float offset = carry + inclusive - v[kItems - 1];
#pragma unroll
    for (int k = 0; k < kItems; ++k) v[k] += offset;
    if (valid) store_items<T, kPacked>(v, out, col, N);
    carry += __shfl_sync(0xffffffffu, inclusive, S - 1, S);
  }
}

// Long rows: a block per row, tiles of blockDim.x * kItems elements.
template <typename T, bool kPacked>
__global__ void __launch_bounds__(1024)
    cumsum_block_rows(const T* __restrict__ x, T* __restrict__ y, int64_t N) {
  __shared__ float warp_prefix[kMaxWarps];
  __shared__ float tile_total;
  const int lane = threadIdx.x % warpSize;
  const int wid = threadIdx.x / warpSize;
  const int warps = (blockDim.x + warpSize - 1) / warpSize;
  const T* in = x + static_cast<int64_t>(blockIdx.x) * N;
  T* out = y + static_cast<int64_t>(blockIdx.x) * N;
  float carry = 0.f;
  for (int64_t base = 0; base < N; base += static_cast<int64_t>(blockDim.x) * kItems) {
    const int64_t col = base + static_cast<int64_t>(threadIdx.x) * kItems;
    float v[kItems];
    load_items<T, kPacked>(v, in, col, N);
#pragma unroll
    for (int k = 1; k < kItems; ++k) v[k] += v[k - 1];
    const float inclusive = segment_scan(v[kItems - 1], lane, warpSize);
    if (lane == warpSize - 1) warp_prefix[wid] = inclusive;
    __syncthreads();
    if (wid == 0) {
      const float t = lane < warps ? warp_prefix[lane] : 0.f;
      const float s = segment_scan(t, lane, warpSize);
      if (lane < warps) warp_prefix[lane] = s - t;  // every lane read its slot in the scan
      if (lane == warpSize - 1) tile_total = s;
    }
    __syncthreads();
    const float offset = carry + warp_prefix[wid] + inclusive - v[kItems - 1];
    carry += tile_total;
    __syncthreads();  // warp_prefix and tile_total are read before the next tile writes them
#pragma unroll
    for (int k = 0; k < kItems; ++k) v[k] += offset;
    store_items<T, kPacked>(v, out, col, N);
  }
}

template <typename T, bool kPacked>
int launch_rows(const T* x, T* y, int64_t M, int64_t N, int warp, cudaStream_t s) {
  const int64_t lanes = (N + kItems - 1) / kItems;
  if (lanes <= 4LL * warp) {  // short rows: S lanes each, at most four tiles
    int S = 1;
    while (S < lanes && S < warp) S *= 2;
    const int rows_per_block = kRowsThreads / S;
    const int64_t blocks = (M + rows_per_block - 1) / rows_per_block;
    if (blocks > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
    cumsum_segment_rows<T, kPacked><<<static_cast<unsigned>(blocks), kRowsThreads, 0, s>>>(
        x, y, M, N, S);
    return static_cast<int>(cudaGetLastError());
  }
  if (M > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
  // Threads for about two tiles per row, 128 to 1024, at most warpSize warps.
  int64_t threads = (lanes + 1) / 2;
  threads = (threads + warp - 1) / warp * warp;
  threads = threads < 128 ? 128 : threads > 1024 ? 1024 : threads;
  if (threads / warp > kMaxWarps || threads / warp > warp) {
    threads = static_cast<int64_t>(warp < kMaxWarps ? warp : kMaxWarps) * warp;
  }
  cumsum_block_rows<T, kPacked><<<static_cast<unsigned>(M), static_cast<int>(threads), 0, s>>>(
      x, y, N);
  return static_cast<int>(cudaGetLastError());
}

template <typename T>
int launch(const void* xv, void* yv, int64_t M, int64_t N, cudaStream_t stream) {
  int device = 0, warp = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err == cudaSuccess) err = cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device);
  if (err != cudaSuccess) return static_cast<int>(err);
  if (warp <= 0 || kRowsThreads % warp != 0) return static_cast<int>(cudaErrorInvalidValue);
  const T* x = static_cast<const T*>(xv);
  T* y = static_cast<T*>(yv);
  // Every pack is 16-byte aligned only when rows start aligned: N a multiple of kItems.
  const bool packed = reinterpret_cast<uintptr_t>(x) % 16 == 0 &&
                      reinterpret_cast<uintptr_t>(y) % 16 == 0 && N % kItems == 0;
  return packed ? launch_rows<T, true>(x, y, M, N, warp, stream)
                : launch_rows<T, false>(x, y, M, N, warp, stream);
}

}  // namespace

extern "C" int aka_cumsum_rows(const void* x, void* y, int64_t M, int64_t N, int dtype,
                               void* stream) {
  if (M <= 0 || N <= 0) return 0;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
    case 1: return launch<__half>(x, y, M, N, s);
    case 2: return launch<__nv_bfloat16>(x, y, M, N, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
