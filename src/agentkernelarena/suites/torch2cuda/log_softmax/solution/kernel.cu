// torch2cuda/log_softmax, solution: one fused kernel, the row kept in registers.
//
// Launcher contract as in the skeleton (binding.cpp declares it):
//   extern "C" int aka_log_softmax_forward(const void* x, void* y, int64_t M, int64_t N,
//                                          int dtype, void* stream);
//
// - rows up to warpSize * 32 elements: one warp per row, reductions with shuffles only;
// - rows up to 1024 * 32 elements (8192 unvectorized): one block per row; each thread keeps at
//   most 32 elements in registers (so 1024 threads fit the 64K-register file), block
//   reductions with shuffles plus one shared-memory exchange;
// - longer rows: one read with a running max and a rescaled running sum per thread, merged
//   across the block, then a second read (mostly from L2) to write.
// 16-byte loads and stores when N is a multiple of the vector width and both pointers are
// 16-byte aligned. Compared with eager PyTorch (eight kernels with float32 temporaries), x is
// read once and y written once.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

namespace {

constexpr int kWarpRowsThreads = 128;  // 4 rows per block on the warp-per-row path
constexpr int kMaxThreads = 1024;
constexpr int kMaxPartials = 64;  // block partials: 1024 threads / at least 16 lanes
constexpr int kCacheFloats = 32;  // row elements a thread keeps in registers

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
__device__ __forceinline__ Pack<T, VEC> load_pack(const T* p) {
  return *reinterpret_cast<const Pack<T, VEC>*>(p);
}

__device__ __forceinline__ float warp_max(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) {
    v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
  }
  return v;
}

__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) {
    v += __shfl_xor_sync(0xffffffffu, v, offset);
  }
  return v;
}

// Block-wide max or sum, returned to every thread. All threads of the block must call it; the
// trailing barrier lets the next call reuse `partial`.
template <bool kMax>
__device__ float block_reduce(float v) {
  __shared__ float partial[kMaxPartials];
  const int lane = threadIdx.x % warpSize;
  const int wid = threadIdx.x / warpSize;
  v = kMax ? warp_max(v) : warp_sum(v);
  if (lane == 0) partial[wid] = v;
  __syncthreads();
  const int warps = (blockDim.x + warpSize - 1) / warpSize;
  const float identity = kMax ? -INFINITY : 0.f;
  const float p = lane < warps ? partial[lane] : identity;
  const float r = kMax ? warp_max(p) : warp_sum(p);
  __syncthreads();
  return r;
}

// Load packs first, first + stride, ... of a row into v; return their max (-inf if none).
template <typename T, int VEC, int ITEMS>
__device__ __forceinline__ float load_row(float (&v)[ITEMS][VEC], const T* __restrict__ in,
                                          int64_t N, int64_t first, int64_t stride) {
  float mx = -INFINITY;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const int64_t col = (first + i * stride) * VEC;
    if (col < N) {
      const Pack<T, VEC> p = load_pack<T, VEC>(in + col);
#pragma unroll
      for (int k = 0; k < VEC; ++k) {
        v[i][k] = to_float(p.v[k]);
        mx = fmaxf(mx, v[i][k]);
      }
    }
  }
  return mx;
}

// Sum of exp(v - mx) over the cached elements that lie inside the row.
template <int VEC, int ITEMS>
__device__ __forceinline__ float sum_exp(const float (&v)[ITEMS][VEC], float mx, int64_t N,
                                         int64_t first, int64_t stride) {
  float s = 0.f;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    if ((first + i * stride) * VEC < N) {
#pragma unroll
      for (int k = 0; k < VEC; ++k) s += __expf(v[i][k] - mx);
    }
  }
  return s;
}

template <typename T, int VEC, int ITEMS>
__device__ __forceinline__ void store_row(const float (&v)[ITEMS][VEC], T* __restrict__ out,
                                          int64_t N, int64_t first, int64_t stride, float lse) {
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const int64_t col = (first + i * stride) * VEC;
    if (col < N) {
      Pack<T, VEC> p;
#pragma unroll
      for (int k = 0; k < VEC; ++k) p.v[k] = from_float<T>(v[i][k] - lse);
      *reinterpret_cast<Pack<T, VEC>*>(out + col) = p;
    }
  }
}

template <typename T, int VEC, int ITEMS>
__global__ void __launch_bounds__(kWarpRowsThreads)
    log_softmax_warp_rows(const T* __restrict__ x, T* __restrict__ y, int64_t M, int64_t N) {
  const int lane = threadIdx.x % warpSize;
  const int64_t row =
      static_cast<int64_t>(blockIdx.x) * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  if (row >= M) return;  // the whole warp leaves together
  float v[ITEMS][VEC];
  const float mx = warp_max(load_row<T, VEC, ITEMS>(v, x + row * N, N, lane, warpSize));
  const float s = warp_sum(sum_exp<VEC, ITEMS>(v, mx, N, lane, warpSize));
  store_row<T, VEC, ITEMS>(v, y + row * N, N, lane, warpSize, mx + logf(s));
}

template <typename T, int VEC, int ITEMS>
__global__ void __launch_bounds__(kMaxThreads)
    log_softmax_block_rows(const T* __restrict__ x, T* __restrict__ y, int64_t N) {
  const int64_t row = blockIdx.x;
  float v[ITEMS][VEC];
  const float mx =
      block_reduce<true>(load_row<T, VEC, ITEMS>(v, x + row * N, N, threadIdx.x, blockDim.x));
  const float s = block_reduce<false>(sum_exp<VEC, ITEMS>(v, mx, N, threadIdx.x, blockDim.x));
  store_row<T, VEC, ITEMS>(v, y + row * N, N, threadIdx.x, blockDim.x, mx + logf(s));
}

// Rows too long for registers: per thread a running max and a sum of exponentials rescaled
// whenever the max grows (once per pack), merged across the block; then the write pass.
template <typename T, int VEC>
__global__ void __launch_bounds__(kMaxThreads)
    log_softmax_long_rows(const T* __restrict__ x, T* __restrict__ y, int64_t N) {
  const T* in = x + static_cast<int64_t>(blockIdx.x) * N;
  T* out = y + static_cast<int64_t>(blockIdx.x) * N;
  const int64_t packs = N / VEC;  // VEC divides N (checked by the launcher)
  float mx = -INFINITY, s = 0.f;
  for (int64_t p = threadIdx.x; p < packs; p += blockDim.x) {
    const Pack<T, VEC> xp = load_pack<T, VEC>(in + p * VEC);
    float v[VEC];
    float pm = -INFINITY;
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      v[k] = to_float(xp.v[k]);
      pm = fmaxf(pm, v[k]);
    }
    const float nm = fmaxf(mx, pm);
    s *= __expf(mx - nm);  // exp(-inf) = 0 on the first pack, where s is 0 anyway
#pragma unroll
    for (int k = 0; k < VEC; ++k) s += __expf(v[k] - nm);
    mx = nm;
  }
  const float row_max = block_reduce<true>(mx);
  // Threads without elements hold (-inf, 0), which contributes 0.
  const float row_sum = block_reduce<false>(s > 0.f ? s * __expf(mx - row_max) : 0.f);
  const float lse = row_max + logf(row_sum);
  for (int64_t p = threadIdx.x; p < packs; p += blockDim.x) {
    const Pack<T, VEC> xp = load_pack<T, VEC>(in + p * VEC);
    Pack<T, VEC> o;
#pragma unroll
    for (int k = 0; k < VEC; ++k) o.v[k] = from_float<T>(to_float(xp.v[k]) - lse);
    *reinterpret_cast<Pack<T, VEC>*>(out + p * VEC) = o;
  }
}

int items_for(int64_t n, int64_t per_item) {
  const int64_t items = (n + per_item - 1) / per_item;
  return items <= 1 ? 1 : items <= 2 ? 2 : items <= 4 ? 4 : 8;
}

template <typename T, int VEC>
int launch_vec(const T* x, T* y, int64_t M, int64_t N, int warp, cudaStream_t s) {
  // At most kCacheFloats cached elements per thread, in 1, 2, 4 or 8 packs.
  constexpr int kMaxItems = kCacheFloats / VEC < 8 ? kCacheFloats / VEC : 8;
  constexpr int kTop = kMaxItems >= 8 ? 8 : 4;
  if (N <= static_cast<int64_t>(warp) * VEC * kMaxItems) {
    const int rows_per_block = kWarpRowsThreads / warp;
    const int64_t blocks = (M + rows_per_block - 1) / rows_per_block;
    if (blocks > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
    const dim3 g(static_cast<unsigned>(blocks));
    const int t = kWarpRowsThreads;
    switch (items_for(N, static_cast<int64_t>(warp) * VEC)) {
      case 1: log_softmax_warp_rows<T, VEC, 1><<<g, t, 0, s>>>(x, y, M, N); break;
      case 2: log_softmax_warp_rows<T, VEC, 2><<<g, t, 0, s>>>(x, y, M, N); break;
      case 4: log_softmax_warp_rows<T, VEC, 4><<<g, t, 0, s>>>(x, y, M, N); break;
      default: log_softmax_warp_rows<T, VEC, kTop><<<g, t, 0, s>>>(x, y, M, N);
    }
    return static_cast<int>(cudaGetLastError());
  }
  if (M > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
  const dim3 g(static_cast<unsigned>(M));
  if (N <= static_cast<int64_t>(kMaxThreads) * VEC * kMaxItems) {
    int64_t threads = (N / VEC + 3) / 4;  // about 4 packs per thread, whole warps
    threads = (threads + warp - 1) / warp * warp;
    threads = threads < 128 ? 128 : threads > kMaxThreads ? kMaxThreads : threads;
    const int t = static_cast<int>(threads);
    switch (items_for(N, threads * VEC)) {
      case 1: log_softmax_block_rows<T, VEC, 1><<<g, t, 0, s>>>(x, y, N); break;
      case 2: log_softmax_block_rows<T, VEC, 2><<<g, t, 0, s>>>(x, y, N); break;
      case 4: log_softmax_block_rows<T, VEC, 4><<<g, t, 0, s>>>(x, y, N); break;
      default: log_softmax_block_rows<T, VEC, kTop><<<g, t, 0, s>>>(x, y, N);
    }
    return static_cast<int>(cudaGetLastError());
  }
  log_softmax_long_rows<T, VEC><<<g, kMaxThreads, 0, s>>>(x, y, N);
  return static_cast<int>(cudaGetLastError());
}

template <typename T>
int launch(const void* xv, void* yv, int64_t M, int64_t N, cudaStream_t stream) {
  int device = 0, warp = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err == cudaSuccess) err = cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device);
  if (err != cudaSuccess) return static_cast<int>(err);
  if (warp <= 0 || kWarpRowsThreads % warp != 0) return static_cast<int>(cudaErrorInvalidValue);
  const T* x = static_cast<const T*>(xv);
  T* y = static_cast<T*>(yv);
  constexpr int kVec = 16 / static_cast<int>(sizeof(T));
  const bool aligned = reinterpret_cast<uintptr_t>(x) % 16 == 0 &&
                       reinterpret_cast<uintptr_t>(y) % 16 == 0 && N % kVec == 0;
  return aligned ? launch_vec<T, kVec>(x, y, M, N, warp, stream)
                 : launch_vec<T, 1>(x, y, M, N, warp, stream);
}

}  // namespace

extern "C" int aka_log_softmax_forward(const void* x, void* y, int64_t M, int64_t N, int dtype,
                                       void* stream) {
  if (M <= 0 || N <= 0) return 0;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, y, M, N, s);
    case 1: return launch<__half>(x, y, M, N, s);
    case 2: return launch<__nv_bfloat16>(x, y, M, N, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
