// torch2cuda/masked_softmax, solution: one read of x and mask, one write of y, the row kept in
// registers.
//
// Launcher contract as in the skeleton (binding.cpp declares it):
//   extern "C" int aka_masked_softmax(const void* x, const void* mask, void* y, int64_t M,
//                                     int64_t N, int dtype, void* stream);
//
// - rows up to warpSize * 32 elements: one warp per row (four per block), shuffles only;
// - rows up to 1024 * 32 elements: one block per row, each thread keeping at most 32 elements
//   in registers; block reductions with shuffles and one shared-memory exchange;
// - longer rows: an online (maximum, sum) pass, then a second read (mostly from L2) to write.
// 16-byte loads of x (and VEC-byte loads of the mask) when N is a multiple of the vector width
// and the pointers are aligned. Excluded positions are held as -inf; a row whose maximum stays
// -inf is written as zeros.
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

constexpr int kRowsThreads = 128;  // warp-per-row blocks
constexpr int kMaxThreads = 1024;
constexpr int kMaxPartials = 64;
constexpr int kCacheFloats = 32;

template <typename T, int N>
struct alignas(sizeof(T) * N) Pack {
  T v[N];
};

__device__ __forceinline__ float warp_max(float v) {
  for (int o = warpSize / 2; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}
__device__ __forceinline__ float warp_sum(float v) {
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

// Block-wide reductions, returned to every thread; every thread of the block must call them.
__device__ float block_max(float v) {
  __shared__ float partial[kMaxPartials];
  const int lane = threadIdx.x % warpSize, wid = threadIdx.x / warpSize;
  v = warp_max(v);
  if (lane == 0) partial[wid] = v;
  __syncthreads();
  const int warps = (blockDim.x + warpSize - 1) / warpSize;
  const float r = warp_max(lane < warps ? partial[lane] : -INFINITY);
  __syncthreads();
  return r;
}
__device__ float block_sum(float v) {
  __shared__ float partial[kMaxPartials];
  const int lane = threadIdx.x % warpSize, wid = threadIdx.x / warpSize;
  v = warp_sum(v);
  if (lane == 0) partial[wid] = v;
  __syncthreads();
  const int warps = (blockDim.x + warpSize - 1) / warpSize;
  const float r = warp_sum(lane < warps ? partial[lane] : 0.f);
  __syncthreads();
  return r;
}

template <typename T, int VEC>
__device__ __forceinline__ void load_masked(float (&v)[VEC], const T* in, const uint8_t* mk) {
  const Pack<T, VEC> p = *reinterpret_cast<const Pack<T, VEC>*>(in);
  const Pack<uint8_t, VEC> m = *reinterpret_cast<const Pack<uint8_t, VEC>*>(mk);
#pragma unroll
  for (int k = 0; k < VEC; ++k) v[k] = m.v[k] ? -INFINITY : to_float(p.v[k]);
}

// One row per warp (kWarpRow) or per block, ITEMS packs of VEC elements per thread in
// registers.
template <typename T, int VEC, int ITEMS, bool kWarpRow>
__global__ void __launch_bounds__(kMaxThreads)
    masked_softmax_cached(const T* __restrict__ x, const uint8_t* __restrict__ mask,
                          T* __restrict__ y, int64_t M, int64_t N) {
  int64_t row;
  int first, stride;
  if (kWarpRow) {
    row = static_cast<int64_t>(blockIdx.x) * (blockDim.x / warpSize) + threadIdx.x / warpSize;
    if (row >= M) return;  // the whole warp leaves together
    first = threadIdx.x % warpSize;
    stride = warpSize;
  } else {
    row = blockIdx.x;
    first = threadIdx.x;
    stride = blockDim.x;
  }
  const T* in = x + row * N;
  const uint8_t* mk = mask + row * N;
  T* out = y + row * N;
  float v[ITEMS][VEC];
  float mx = -INFINITY;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const int64_t col = static_cast<int64_t>(first + i * stride) * VEC;
    if (col < N) {
      load_masked<T, VEC>(v[i], in + col, mk + col);
#pragma unroll
      for (int k = 0; k < VEC; ++k) mx = fmaxf(mx, v[i][k]);
    } else {
#pragma unroll
      for (int k = 0; k < VEC; ++k) v[i][k] = -INFINITY;
    }
  }
  mx = kWarpRow ? warp_max(mx) : block_max(mx);
  float s = 0.f;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      v[i][k] = v[i][k] == -INFINITY ? 0.f : expf(v[i][k] - mx);
      s += v[i][k];
    }
  }
  s = kWarpRow ? warp_sum(s) : block_sum(s);
  const float inv = s > 0.f ? 1.f / s : 0.f;  // no kept position: every v is 0 already
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const int64_t col = static_cast<int64_t>(first + i * stride) * VEC;
    if (col < N) {
      Pack<T, VEC> o;
#pragma unroll
      for (int k = 0; k < VEC; ++k) o.v[k] = from_float<T>(v[i][k] * inv);
      *reinterpret_cast<Pack<T, VEC>*>(out + col) = o;
    }
  }
}

// (max, sum of exp(x - max)) pairs merged.
__device__ __forceinline__ void merge(float& m, float& s, float m2, float s2) {
  const float mn = fmaxf(m, m2);
  if (mn == -INFINITY) return;  // both empty
  s = (m == -INFINITY ? 0.f : s * expf(m - mn)) + (m2 == -INFINITY ? 0.f : s2 * expf(m2 - mn));
  m = mn;
}

// Rows too long for registers: one online pass for the statistics, one to write.
template <typename T, int VEC>
__global__ void __launch_bounds__(kMaxThreads)
    masked_softmax_long(const T* __restrict__ x, const uint8_t* __restrict__ mask,
                        T* __restrict__ y, int64_t N) {
  __shared__ float pm[kMaxPartials], ps[kMaxPartials];
  const int64_t row = blockIdx.x;
  const T* in = x + row * N;
  const uint8_t* mk = mask + row * N;
  T* out = y + row * N;
  float m = -INFINITY, s = 0.f;
  for (int64_t col = static_cast<int64_t>(threadIdx.x) * VEC; col < N;
       col += static_cast<int64_t>(blockDim.x) * VEC) {
    float v[VEC];
    load_masked<T, VEC>(v, in + col, mk + col);
    float pmax = -INFINITY;
#pragma unroll
    for (int k = 0; k < VEC; ++k) pmax = fmaxf(pmax, v[k]);
    if (pmax == -INFINITY) continue;
    float psum = 0.f;
#pragma unroll
    for (int k = 0; k < VEC; ++k) psum += v[k] == -INFINITY ? 0.f : expf(v[k] - pmax);
    merge(m, s, pmax, psum);
  }
  for (int o = warpSize / 2; o > 0; o /= 2) {
    const float m2 = __shfl_xor_sync(0xffffffffu, m, o);
    const float s2 = __shfl_xor_sync(0xffffffffu, s, o);
    merge(m, s, m2, s2);
  }
  const int lane = threadIdx.x % warpSize, wid = threadIdx.x / warpSize;
  if (lane == 0) {
    pm[wid] = m;
    ps[wid] = s;
  }
  __syncthreads();
  const int warps = (blockDim.x + warpSize - 1) / warpSize;
  m = lane < warps ? pm[lane] : -INFINITY;
  s = lane < warps ? ps[lane] : 0.f;
  for (int o = warpSize / 2; o > 0; o /= 2) {
    const float m2 = __shfl_xor_sync(0xffffffffu, m, o);
    const float s2 = __shfl_xor_sync(0xffffffffu, s, o);
    merge(m, s, m2, s2);
  }
  const float inv = s > 0.f ? 1.f / s : 0.f;
  for (int64_t col = static_cast<int64_t>(threadIdx.x) * VEC; col < N;
       col += static_cast<int64_t>(blockDim.x) * VEC) {
    float v[VEC];
    load_masked<T, VEC>(v, in + col, mk + col);
    Pack<T, VEC> o;
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      o.v[k] = from_float<T>(v[k] == -INFINITY ? 0.f : expf(v[k] - m) * inv);
    }
    *reinterpret_cast<Pack<T, VEC>*>(out + col) = o;
  }
}

int items_for(int64_t n, int64_t per_item) {
  const int64_t items = (n + per_item - 1) / per_item;
  return items <= 1 ? 1 : items <= 2 ? 2 : items <= 4 ? 4 : 8;
}

template <typename T, int VEC>
int launch_vec(const T* x, const uint8_t* mask, T* y, int64_t M, int64_t N, int warp,
               cudaStream_t s) {
  constexpr int kMaxItems = kCacheFloats / VEC < 8 ? kCacheFloats / VEC : 8;
  constexpr int kTop = kMaxItems >= 8 ? 8 : 4;
  if (N <= static_cast<int64_t>(warp) * VEC * kMaxItems) {
    const int rows_per_block = kRowsThreads / warp;
    const int64_t blocks = (M + rows_per_block - 1) / rows_per_block;
    if (blocks > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
    const dim3 g(static_cast<unsigned>(blocks));
    const int t = kRowsThreads;
    switch (items_for(N, static_cast<int64_t>(warp) * VEC)) {
      case 1: masked_softmax_cached<T, VEC, 1, true><<<g, t, 0, s>>>(x, mask, y, M, N); break;
      case 2: masked_softmax_cached<T, VEC, 2, true><<<g, t, 0, s>>>(x, mask, y, M, N); break;
      case 4: masked_softmax_cached<T, VEC, 4, true><<<g, t, 0, s>>>(x, mask, y, M, N); break;
      default: masked_softmax_cached<T, VEC, kTop, true><<<g, t, 0, s>>>(x, mask, y, M, N);
    }
    return static_cast<int>(cudaGetLastError());
  }
  if (M > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
  const dim3 g(static_cast<unsigned>(M));
  if (N <= static_cast<int64_t>(kMaxThreads) * VEC * kMaxItems) {
    int64_t threads = (N / VEC + 3) / 4;  // about four packs per thread, whole warps
    threads = (threads + warp - 1) / warp * warp;
    threads = threads < 128 ? 128 : threads > kMaxThreads ? kMaxThreads : threads;
    const int t = static_cast<int>(threads);
    switch (items_for(N, threads * VEC)) {
      case 1: masked_softmax_cached<T, VEC, 1, false><<<g, t, 0, s>>>(x, mask, y, M, N); break;
      case 2: masked_softmax_cached<T, VEC, 2, false><<<g, t, 0, s>>>(x, mask, y, M, N); break;
      case 4: masked_softmax_cached<T, VEC, 4, false><<<g, t, 0, s>>>(x, mask, y, M, N); break;
      default: masked_softmax_cached<T, VEC, kTop, false><<<g, t, 0, s>>>(x, mask, y, M, N);
    }
    return static_cast<int>(cudaGetLastError());
  }
  masked_softmax_long<T, VEC><<<g, kMaxThreads, 0, s>>>(x, mask, y, N);
  return static_cast<int>(cudaGetLastError());
}

template <typename T>
int launch(const void* xv, const void* maskv, void* yv, int64_t M, int64_t N,
           cudaStream_t stream) {
  int device = 0, warp = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err == cudaSuccess) err = cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device);
  if (err != cudaSuccess) return static_cast<int>(err);
  if (warp <= 0 || kRowsThreads % warp != 0) return static_cast<int>(cudaErrorInvalidValue);
  const T* x = static_cast<const T*>(xv);
  const uint8_t* mask = static_cast<const uint8_t*>(maskv);
  T* y = static_cast<T*>(yv);
  constexpr int kVec = 16 / static_cast<int>(sizeof(T));
  const bool aligned = reinterpret_cast<uintptr_t>(x) % 16 == 0 &&
                       reinterpret_cast<uintptr_t>(y) % 16 == 0 &&
                       reinterpret_cast<uintptr_t>(mask) % kVec == 0 && N % kVec == 0;
  return aligned ? launch_vec<T, kVec>(x, mask, y, M, N, warp, stream)
                 : launch_vec<T, 1>(x, mask, y, M, N, warp, stream);
}

}  // namespace

extern "C" int aka_masked_softmax(const void* x, const void* mask, void* y, int64_t M,
                                  int64_t N, int dtype, void* stream) {
  if (M <= 0 || N <= 0) return 0;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, mask, y, M, N, s);
    case 1: return launch<__half>(x, mask, y, M, N, s);
    case 2: return launch<__nv_bfloat16>(x, mask, y, M, N, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
