// cuda2cuda/layernorm, solution: the row is read from DRAM once and kept in registers.
//
// Launcher contract as in the baseline (binding.cpp declares it):
//   extern "C" int aka_layernorm_forward(const void* x, const void* w, const void* b, void* y,
//                                        int64_t M, int64_t N, float eps, int dtype,
//                                        void* stream);
//
// - short rows (N <= warpSize * VEC * 8): one warp per row, several rows per block, sums with
//   warp shuffles only (no barrier);
// - rows up to 1024 * VEC * 8 elements: one block per row, the row in registers, so the exact
//   two-pass variance (sum of squared deviations from the mean) costs no second read; block
//   sums are shuffles plus one shared-memory exchange;
// - longer rows: one read for the shifted sums of x and x^2 (shifted by the row's first
//   element, which keeps the cancellation in var = E[d^2] - E[d]^2 small), then a second read
//   that writes y (mostly from L2, the row having just been read).
// 16-byte vector loads and stores (x, w, b, y) when N is a multiple of the vector width and
// every pointer is 16-byte aligned. Otherwise elements are loaded one by one, and only short
// rows stay in registers: a long row of scalars would need a 1024-thread block holding up to
// 8 values a thread, one block per SM, too few loads in flight; the two-read kernel with
// 256-thread blocks (8 per SM, 4 loads in flight a thread) keeps more bytes in flight.
// The warp size comes from the device.
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

__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) {
    v += __shfl_xor_sync(0xffffffffu, v, offset);
  }
  return v;
}

// Block-wide sum, returned to every thread. All threads of the block must call it.
__device__ float block_sum(float v) {
  __shared__ float partial[kMaxPartials];
  const int lane = threadIdx.x % warpSize;
  const int wid = threadIdx.x / warpSize;
  v = warp_sum(v);
  if (lane == 0) partial[wid] = v;
  __syncthreads();
  const int warps = (blockDim.x + warpSize - 1) / warpSize;
  float r = lane < warps ? partial[lane] : 0.f;
  r = warp_sum(r);
  __syncthreads();  // `partial` is reused by the next call
  return r;
}

// The row in registers. kWarp: a warp per row (lane l holds packs l, l + warpSize, ...);
// otherwise a block per row (thread t holds packs t, t + blockDim.x, ...).
template <typename T, int VEC, int ITEMS, bool kWarp>
__global__ void layernorm_rows(const T* __restrict__ x, const T* __restrict__ w,
                               const T* __restrict__ b, T* __restrict__ y, int64_t M, int64_t N,
                               float eps) {
  int64_t row;
  int lane, group;
  if (kWarp) {
    row = static_cast<int64_t>(blockIdx.x) * (blockDim.x / warpSize) + threadIdx.x / warpSize;
    lane = threadIdx.x % warpSize;
    group = warpSize;
    if (row >= M) return;  // the whole warp leaves together
  } else {
    row = blockIdx.x;
    lane = threadIdx.x;
    group = blockDim.x;
  }
  const T* in = x + row * N;
  T* out = y + row * N;
  float v[ITEMS][VEC];
  float s = 0.f;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const int64_t col = (static_cast<int64_t>(i) * group + lane) * VEC;
    if (col < N) {
      const Pack<T, VEC> p = *reinterpret_cast<const Pack<T, VEC>*>(in + col);
#pragma unroll
      for (int k = 0; k < VEC; ++k) {
        v[i][k] = to_float(p.v[k]);
        s += v[i][k];
      }
    }
  }
  const float inv_n = 1.f / static_cast<float>(N);
  const float mean = (kWarp ? warp_sum(s) : block_sum(s)) * inv_n;
  float sq = 0.f;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const int64_t col = (static_cast<int64_t>(i) * group + lane) * VEC;
    if (col < N) {
#pragma unroll
      for (int k = 0; k < VEC; ++k) {
        v[i][k] -= mean;
        sq += v[i][k] * v[i][k];
      }
    }
  }
  const float rstd = rsqrtf((kWarp ? warp_sum(sq) : block_sum(sq)) * inv_n + eps);
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const int64_t col = (static_cast<int64_t>(i) * group + lane) * VEC;
    if (col < N) {
      const Pack<T, VEC> pw = *reinterpret_cast<const Pack<T, VEC>*>(w + col);
      const Pack<T, VEC> pb = *reinterpret_cast<const Pack<T, VEC>*>(b + col);
      Pack<T, VEC> p;
#pragma unroll
      for (int k = 0; k < VEC; ++k) {
        p.v[k] = from_float<T>(v[i][k] * rstd * to_float(pw.v[k]) + to_float(pb.v[k]));
      }
      *reinterpret_cast<Pack<T, VEC>*>(out + col) = p;
    }
  }
}

// Rows too long for registers: shifted sums in one read, then a second read that writes.
template <typename T, int VEC>
__global__ void layernorm_long_rows(const T* __restrict__ x, const T* __restrict__ w,
                                    const T* __restrict__ b, T* __restrict__ y, int64_t N,
                                    float eps) {
  const T* in = x + static_cast<int64_t>(blockIdx.x) * N;
  T* out = y + static_cast<int64_t>(blockIdx.x) * N;
  const float shift = to_float(in[0]);
  float s1 = 0.f, s2 = 0.f;
#pragma unroll 4
  for (int64_t col = static_cast<int64_t>(threadIdx.x) * VEC; col < N;
       col += static_cast<int64_t>(blockDim.x) * VEC) {
    const Pack<T, VEC> p = *reinterpret_cast<const Pack<T, VEC>*>(in + col);
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      const float d = to_float(p.v[k]) - shift;
      s1 += d;
      s2 += d * d;
    }
  }
  const float inv_n = 1.f / static_cast<float>(N);
  const float m1 = block_sum(s1) * inv_n;
  const float m2 = block_sum(s2) * inv_n;
  const float mean = shift + m1;
  const float rstd = rsqrtf(fmaxf(m2 - m1 * m1, 0.f) + eps);
  for (int64_t col = static_cast<int64_t>(threadIdx.x) * VEC; col < N;
       col += static_cast<int64_t>(blockDim.x) * VEC) {
    const Pack<T, VEC> p = *reinterpret_cast<const Pack<T, VEC>*>(in + col);
    const Pack<T, VEC> pw = *reinterpret_cast<const Pack<T, VEC>*>(w + col);
    const Pack<T, VEC> pb = *reinterpret_cast<const Pack<T, VEC>*>(b + col);
    Pack<T, VEC> q;
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      q.v[k] = from_float<T>((to_float(p.v[k]) - mean) * rstd * to_float(pw.v[k]) +
                             to_float(pb.v[k]));
    }
    *reinterpret_cast<Pack<T, VEC>*>(out + col) = q;
  }
}

int items_for(int64_t n, int64_t per_item) {
  const int64_t items = (n + per_item - 1) / per_item;
  return items <= 1 ? 1 : items <= 2 ? 2 : items <= 4 ? 4 : 8;
}

template <typename T, int VEC>
int launch_vec(const T* x, const T* w, const T* b, T* y, int64_t M, int64_t N, float eps,
               int warp, int sms, cudaStream_t stream) {
  if (N <= static_cast<int64_t>(warp) * VEC * 8) {
    const int rows_per_block = kWarpRowsThreads / warp;
    const int64_t blocks = (M + rows_per_block - 1) / rows_per_block;
    if (blocks > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
    const dim3 grid(static_cast<unsigned>(blocks));
    const int t = kWarpRowsThreads;
    switch (items_for(N, static_cast<int64_t>(warp) * VEC)) {
      case 1: layernorm_rows<T, VEC, 1, true><<<grid, t, 0, stream>>>(x, w, b, y, M, N, eps); break;
      case 2: layernorm_rows<T, VEC, 2, true><<<grid, t, 0, stream>>>(x, w, b, y, M, N, eps); break;
      case 4: layernorm_rows<T, VEC, 4, true><<<grid, t, 0, stream>>>(x, w, b, y, M, N, eps); break;
      default: layernorm_rows<T, VEC, 8, true><<<grid, t, 0, stream>>>(x, w, b, y, M, N, eps);
    }
    return static_cast<int>(cudaGetLastError());
  }
  if (M > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
  const dim3 grid(static_cast<unsigned>(M));
  if (N <= (VEC > 1 ? 1024LL * VEC * 8 : 1024LL)) {
    // About 4 packs per thread, whole warps, 128 to 1024 threads.
    int64_t threads = (N / VEC + 3) / 4;
    threads = (threads + warp - 1) / warp * warp;
    threads = threads < 128 ? 128 : threads > 1024 ? 1024 : threads;
    const int t = static_cast<int>(threads);
    switch (items_for(N, threads * VEC)) {
      case 1: layernorm_rows<T, VEC, 1, false><<<grid, t, 0, stream>>>(x, w, b, y, M, N, eps); break;
      case 2: layernorm_rows<T, VEC, 2, false><<<grid, t, 0, stream>>>(x, w, b, y, M, N, eps); break;
      case 4: layernorm_rows<T, VEC, 4, false><<<grid, t, 0, stream>>>(x, w, b, y, M, N, eps); break;
      default: layernorm_rows<T, VEC, 8, false><<<grid, t, 0, stream>>>(x, w, b, y, M, N, eps);
    }
    return static_cast<int>(cudaGetLastError());
  }
  // Few rows: big blocks, so that the rows still spread over the whole GPU.
  const int long_threads = M < 8LL * sms ? 1024 : 256;
  layernorm_long_rows<T, VEC><<<grid, long_threads, 0, stream>>>(x, w, b, y, N, eps);
  return static_cast<int>(cudaGetLastError());
}

template <typename T>
int launch(const void* xv, const void* wv, const void* bv, void* yv, int64_t M, int64_t N,
           float eps, cudaStream_t stream) {
  int device = 0, warp = 0, sms = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err == cudaSuccess) err = cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device);
  if (err == cudaSuccess) {
    err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  }
  if (err != cudaSuccess) return static_cast<int>(err);
  if (warp <= 0 || sms <= 0) return static_cast<int>(cudaErrorInvalidValue);
  const T* x = static_cast<const T*>(xv);
  const T* w = static_cast<const T*>(wv);
  const T* b = static_cast<const T*>(bv);
  T* y = static_cast<T*>(yv);
  constexpr int kVec = 16 / static_cast<int>(sizeof(T));
  const bool aligned =
      reinterpret_cast<uintptr_t>(x) % 16 == 0 && reinterpret_cast<uintptr_t>(y) % 16 == 0 &&
      reinterpret_cast<uintptr_t>(w) % 16 == 0 && reinterpret_cast<uintptr_t>(b) % 16 == 0 &&
      N % kVec == 0;
  return aligned ? launch_vec<T, kVec>(x, w, b, y, M, N, eps, warp, sms, stream)
                 : launch_vec<T, 1>(x, w, b, y, M, N, eps, warp, sms, stream);
}

}  // namespace

extern "C" int aka_layernorm_forward(const void* x, const void* w, const void* b, void* y,
                                     int64_t M, int64_t N, float eps, int dtype, void* stream) {
  if (M <= 0 || N <= 0) return 0;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, w, b, y, M, N, eps, s);
    case 1: return launch<__half>(x, w, b, y, M, N, eps, s);
    case 2: return launch<__nv_bfloat16>(x, w, b, y, M, N, eps, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
