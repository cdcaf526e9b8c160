// cuda2cuda/softmax, solution: the row is read once and kept in registers.
//
// Launcher contract as in the baseline (binding.cpp declares it):
//   extern "C" int aka_softmax_forward(const void* x, void* y, int64_t M, int64_t N,
//                                      int dtype, void* stream);
//
// - short rows (N <= warpSize * VEC * 8): one warp per row, reductions with shuffles only;
// - rows up to 1024 * VEC * 8 elements: one block per row, the row in registers, block
//   reductions with shuffles plus one shared-memory exchange;
// - longer rows: a two-pass online softmax (running max and sum in one read, then write).
// 16-byte vector loads and stores when N is a multiple of the vector width and the pointers
// are 16-byte aligned. The warp size comes from the device, not a constant.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kWarpRowsThreads = 128;  // threads per block of the warp-per-row kernel
constexpr int kMaxPartials = 64;       // block partials: 1024 threads / at least 16 lanes

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

// Block-wide max or sum, returned to every thread. All threads of the block must call it.
template <bool kMax>
__device__ float block_reduce(float v) {
  __shared__ float partial[kMaxPartials];
  const int lane = threadIdx.x % warpSize;
  const int wid = threadIdx.x / warpSize;
  v = kMax ? warp_max(v) : warp_sum(v);
  if (lane == 0) partial[wid] = v;
  __syncthreads();
  const int warps = (blockDim.x + warpSize - 1) / warpSize;
  float r = lane < warps ? partial[lane] : (kMax ? -INFINITY : 0.f);
  r = kMax ? warp_max(r) : warp_sum(r);
  __syncthreads();  // `partial` is reused by the next call
  return r;
}

// One warp per row; lane l holds packs l, l + warpSize, ... of the row.
template <typename T, int VEC, int ITEMS>
__global__ void softmax_warp_rows(const T* __restrict__ x, T* __restrict__ y, int64_t M,
                                  int64_t N) {
  const int lane = threadIdx.x % warpSize;
  const int64_t row =
      static_cast<int64_t>(blockIdx.x) * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  if (row >= M) return;  // the whole warp leaves together
  const T* in = x + row * N;
  T* out = y + row * N;
  float v[ITEMS][VEC];
  float m = -INFINITY;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const int64_t col = (static_cast<int64_t>(i) * warpSize + lane) * VEC;
    if (col < N) {
      const Pack<T, VEC> p = *reinterpret_cast<const Pack<T, VEC>*>(in + col);
#pragma unroll
      for (int k = 0; k < VEC; ++k) {
        v[i][k] = to_float(p.v[k]);
        m = fmaxf(m, v[i][k]);
      }
    }
  }
  m = warp_max(m);
  float s = 0.f;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const int64_t col = (static_cast<int64_t>(i) * warpSize + lane) * VEC;
    if (col < N) {
#pragma unroll
      for (int k = 0; k < VEC; ++k) {
        v[i][k] = expf(v[i][k] - m);
        s += v[i][k];
      }
    }
  }
  const float inv = 1.f / warp_sum(s);
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const int64_t col = (static_cast<int64_t>(i) * warpSize + lane) * VEC;
    if (col < N) {
      Pack<T, VEC> p;
#pragma unroll
      for (int k = 0; k < VEC; ++k) p.v[k] = from_float<T>(v[i][k] * inv);
      *reinterpret_cast<Pack<T, VEC>*>(out + col) = p;
    }
  }
}

// One block per row, the row in registers: thread t holds packs t, t + blockDim.x, ...
template <typename T, int VEC, int ITEMS>
__global__ void softmax_block_rows(const T* __restrict__ x, T* __restrict__ y, int64_t N) {
  const T* in = x + static_cast<int64_t>(blockIdx.x) * N;
  T* out = y + static_cast<int64_t>(blockIdx.x) * N;
  float v[ITEMS][VEC];
  float m = -INFINITY;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const int64_t col = (static_cast<int64_t>(i) * blockDim.x + threadIdx.x) * VEC;
    if (col < N) {
      const Pack<T, VEC> p = *reinterpret_cast<const Pack<T, VEC>*>(in + col);
#pragma unroll
      for (int k = 0; k < VEC; ++k) {
        v[i][k] = to_float(p.v[k]);
        m = fmaxf(m, v[i][k]);
      }
    }
  }
  m = block_reduce<true>(m);
  float s = 0.f;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const int64_t col = (static_cast<int64_t>(i) * blockDim.x + threadIdx.x) * VEC;
    if (col < N) {
#pragma unroll
      for (int k = 0; k < VEC; ++k) {
        v[i][k] = expf(v[i][k] - m);
        s += v[i][k];
      }
    }
  }
  const float inv = 1.f / block_reduce<false>(s);
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const int64_t col = (static_cast<int64_t>(i) * blockDim.x + threadIdx.x) * VEC;
    if (col < N) {
      Pack<T, VEC> p;
#pragma unroll
      for (int k = 0; k < VEC; ++k) p.v[k] = from_float<T>(v[i][k] * inv);
      *reinterpret_cast<Pack<T, VEC>*>(out + col) = p;
    }
  }
}

// Rows too long for registers: running (max, sum) in one read, then a second read to write.
template <typename T>
__global__ void softmax_online_rows(const T* __restrict__ x, T* __restrict__ y, int64_t N) {
  __shared__ float part_m[kMaxPartials];
  __shared__ float part_s[kMaxPartials];
  const T* in = x + static_cast<int64_t>(blockIdx.x) * N;
  T* out = y + static_cast<int64_t>(blockIdx.x) * N;
  float m = -INFINITY, s = 0.f;
  for (int64_t j = threadIdx.x; j < N; j += blockDim.x) {
    const float v = to_float(in[j]);
    if (v > m) {
      s = s * expf(m - v) + 1.f;
      m = v;
    } else if (v != -INFINITY) {
      s += expf(v - m);
    }
  }
  // Combine (m, s) pairs: across the warp with shuffles, then across warps.
  for (int offset = warpSize / 2; offset > 0; offset /= 2) {
    const float om = __shfl_xor_sync(0xffffffffu, m, offset);
    const float os = __shfl_xor_sync(0xffffffffu, s, offset);
    const float nm = fmaxf(m, om);
    s = (m == -INFINITY ? 0.f : s * expf(m - nm)) + (om == -INFINITY ? 0.f : os * expf(om - nm));
    m = nm;
  }
  const int lane = threadIdx.x % warpSize;
  const int wid = threadIdx.x / warpSize;
  if (lane == 0) {
    part_m[wid] = m;
    part_s[wid] = s;
  }
  __syncthreads();
  const int warps = (blockDim.x + warpSize - 1) / warpSize;
  m = lane < warps ? part_m[lane] : -INFINITY;
  s = lane < warps ? part_s[lane] : 0.f;
  for (int offset = warpSize / 2; offset > 0; offset /= 2) {
    const float om = __shfl_xor_sync(0xffffffffu, m, offset);
    const float os = __shfl_xor_sync(0xffffffffu, s, offset);
    const float nm = fmaxf(m, om);
    s = (m == -INFINITY ? 0.f : s * expf(m - nm)) + (om == -INFINITY ? 0.f : os * expf(om - nm));
    m = nm;
  }
  const float inv = 1.f / s;
  for (int64_t j = threadIdx.x; j < N; j += blockDim.x) {
    out[j] = from_float<T>(expf(to_float(in[j]) - m) * inv);
  }
}

int items_for(int64_t n, int64_t per_item) {
  const int64_t items = (n + per_item - 1) / per_item;
  return items <= 1 ? 1 : items <= 2 ? 2 : items <= 4 ? 4 : 8;
}

template <typename T, int VEC>
int launch_vec(const T* x, T* y, int64_t M, int64_t N, int warp, cudaStream_t stream) {
  if (N <= static_cast<int64_t>(warp) * VEC * 8) {
    const int rows_per_block = kWarpRowsThreads / warp;
    const int64_t blocks = (M + rows_per_block - 1) / rows_per_block;
    if (blocks > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
    const dim3 grid(static_cast<unsigned>(blocks));
    const int t = kWarpRowsThreads;
    switch (items_for(N, static_cast<int64_t>(warp) * VEC)) {
      case 1: softmax_warp_rows<T, VEC, 1><<<grid, t, 0, stream>>>(x, y, M, N); break;
      case 2: softmax_warp_rows<T, VEC, 2><<<grid, t, 0, stream>>>(x, y, M, N); break;
      case 4: softmax_warp_rows<T, VEC, 4><<<grid, t, 0, stream>>>(x, y, M, N); break;
      default: softmax_warp_rows<T, VEC, 8><<<grid, t, 0, stream>>>(x, y, M, N);
    }
    return static_cast<int>(cudaGetLastError());
  }
  if (M > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
  const dim3 grid(static_cast<unsigned>(M));
  if (N <= 1024LL * VEC * 8) {
    // About 4 packs per thread, whole warps, 128 to 1024 threads.
    int64_t threads = (N / VEC + 3) / 4;
    threads = (threads + warp - 1) / warp * warp;
    threads = threads < 128 ? 128 : threads > 1024 ? 1024 : threads;
    const int t = static_cast<int>(threads);
    switch (items_for(N, threads * VEC)) {
      case 1: softmax_block_rows<T, VEC, 1><<<grid, t, 0, stream>>>(x, y, N); break;
      case 2: softmax_block_rows<T, VEC, 2><<<grid, t, 0, stream>>>(x, y, N); break;
      case 4: softmax_block_rows<T, VEC, 4><<<grid, t, 0, stream>>>(x, y, N); break;
      default: softmax_block_rows<T, VEC, 8><<<grid, t, 0, stream>>>(x, y, N);
    }
    return static_cast<int>(cudaGetLastError());
  }
  softmax_online_rows<T><<<grid, 1024, 0, stream>>>(x, y, N);
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

extern "C" int aka_softmax_forward(const void* x, void* y, int64_t M, int64_t N, int dtype,
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
