// torch2cuda/kl_div_rows, solution: one pass over both rows with online softmax statistics.
//
// Launcher contract as in the skeleton (binding.cpp declares it):
//   extern "C" int aka_kl_div_rows(const void* logits, const void* target, void* out,
//                                  int64_t M, int64_t N, int dtype, void* stream);
//
// With s = target[m, :] and t = logits[m, :], KL(p || q) = C / Zs - (ms + log Zs) + (mt + log Zt)
// where ms, mt are the row maxima, Zs = sum exp(s - ms), Zt = sum exp(t - mt) and
// C = sum exp(s - ms) (s - t). Every thread keeps (ms, Zs, C) and (mt, Zt) for its part of the
// row, rescaling the sums once per 16-byte pack when a maximum grows; the partial states merge
// (rescaled to the larger maximum) across the warp with shuffles and across the block through
// shared memory. Both rows are read once:
// - rows up to warpSize * VEC * 16 elements: one warp per row;
// - longer rows: one block per row (256 or 512 threads).
// Eager PyTorch writes and re-reads two full-size log-softmaxes and three full-size kl_div
// temporaries in float32; this kernel moves 2 M N elements of the input dtype.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

namespace {

constexpr int kWarpRowsThreads = 128;  // 4 rows per block on the warp-per-row path
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

// Partial statistics of a piece of one row. zs == 0 (with ms = -inf) means "no elements yet";
// zs and zt are zero or positive together.
struct State {
  float ms, zs, cross;  // target: max, sum exp(s - ms), sum exp(s - ms) (s - t)
  float mt, zt;         // logits: max, sum exp(t - mt)
};

__device__ __forceinline__ State empty_state() { return {-INFINITY, 0.f, 0.f, -INFINITY, 0.f}; }

// Both states rescaled to the larger maxima and added.
__device__ __forceinline__ State merge(const State& a, const State& b) {
  if (a.zs == 0.f) return b;
  if (b.zs == 0.f) return a;
  State r;
  r.ms = fmaxf(a.ms, b.ms);
  const float fa = __expf(a.ms - r.ms), fb = __expf(b.ms - r.ms);
  r.zs = a.zs * fa + b.zs * fb;
  r.cross = a.cross * fa + b.cross * fb;
  r.mt = fmaxf(a.mt, b.mt);
  r.zt = a.zt * __expf(a.mt - r.mt) + b.zt * __expf(b.mt - r.mt);
  return r;
}

__device__ __forceinline__ State shfl_xor(const State& s, int offset) {
  return {__shfl_xor_sync(0xffffffffu, s.ms, offset), __shfl_xor_sync(0xffffffffu, s.zs, offset),
          __shfl_xor_sync(0xffffffffu, s.cross, offset),
          __shfl_xor_sync(0xffffffffu, s.mt, offset), __shfl_xor_sync(0xffffffffu, s.zt, offset)};
}

__device__ __forceinline__ State warp_merge(State s) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) s = merge(s, shfl_xor(s, offset));
  return s;
}

// Packs first, first + stride, ... of one row of logits (t) and target (s).
template <typename T, int VEC>
__device__ __forceinline__ State row_state(const T* __restrict__ rt, const T* __restrict__ rs,
                                           int64_t packs, int64_t first, int64_t stride) {
  State st = empty_state();
#pragma unroll 2
  for (int64_t p = first; p < packs; p += stride) {
    const Pack<T, VEC> pt = *reinterpret_cast<const Pack<T, VEC>*>(rt + p * VEC);
    const Pack<T, VEC> ps = *reinterpret_cast<const Pack<T, VEC>*>(rs + p * VEC);
    float vt[VEC], vs[VEC];
    float pmt = -INFINITY, pms = -INFINITY;
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      vt[k] = to_float(pt.v[k]);
      vs[k] = to_float(ps.v[k]);
      pmt = fmaxf(pmt, vt[k]);
      pms = fmaxf(pms, vs[k]);
    }
    // Rescale the sums to the new maxima (a factor of exp(-inf) = 0 on the first pack, where
    // the sums are still 0).
    const float ms = fmaxf(st.ms, pms), mt = fmaxf(st.mt, pmt);
    const float fs = __expf(st.ms - ms);
    st.zs *= fs;
    st.cross *= fs;
    st.zt *= __expf(st.mt - mt);
    st.ms = ms;
    st.mt = mt;
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      const float e = __expf(vs[k] - ms);
      st.zs += e;
      st.cross += e * (vs[k] - vt[k]);
      st.zt += __expf(vt[k] - mt);
    }
  }
  return st;
}

__device__ __forceinline__ float kl_of(const State& s) {
  return s.cross / s.zs - (s.ms + logf(s.zs)) + (s.mt + logf(s.zt));
}

template <typename T, int VEC>
__global__ void __launch_bounds__(kWarpRowsThreads)
    kl_warp_rows(const T* __restrict__ logits, const T* __restrict__ target, T* __restrict__ out,
                 int64_t M, int64_t N) {
  const int lane = threadIdx.x % warpSize;
  const int64_t row =
      static_cast<int64_t>(blockIdx.x) * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  if (row >= M) return;  // the whole warp leaves together
  const State s =
      warp_merge(row_state<T, VEC>(logits + row * N, target + row * N, N / VEC, lane, warpSize));
  if (lane == 0) out[row] = from_float<T>(kl_of(s));
}

template <typename T, int VEC>
__global__ void __launch_bounds__(512)
    kl_block_rows(const T* __restrict__ logits, const T* __restrict__ target,
                  T* __restrict__ out, int64_t N) {
  __shared__ State partial[kMaxPartials];
  const int64_t row = blockIdx.x;
  const int lane = threadIdx.x % warpSize;
  const int wid = threadIdx.x / warpSize;
  State s = warp_merge(
      row_state<T, VEC>(logits + row * N, target + row * N, N / VEC, threadIdx.x, blockDim.x));
  if (lane == 0) partial[wid] = s;
  __syncthreads();
  if (wid == 0) {
    const int warps = (blockDim.x + warpSize - 1) / warpSize;
    s = warp_merge(lane < warps ? partial[lane] : empty_state());
    if (lane == 0) out[row] = from_float<T>(kl_of(s));
  }
}

template <typename T, int VEC>
int launch_vec(const T* logits, const T* target, T* out, int64_t M, int64_t N, int warp,
               cudaStream_t s) {
  if (N <= static_cast<int64_t>(warp) * VEC * 16) {
    const int rows_per_block = kWarpRowsThreads / warp;
    const int64_t blocks = (M + rows_per_block - 1) / rows_per_block;
    if (blocks > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
    kl_warp_rows<T, VEC><<<static_cast<unsigned>(blocks), kWarpRowsThreads, 0, s>>>(
        logits, target, out, M, N);
    return static_cast<int>(cudaGetLastError());
  }
  if (M > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
  // Enough threads for about 8 packs each before the longest rows get 512.
  const int threads = N / VEC >= 512 * 8 ? 512 : 256;
  kl_block_rows<T, VEC><<<static_cast<unsigned>(M), threads, 0, s>>>(logits, target, out, N);
  return static_cast<int>(cudaGetLastError());
}

template <typename T>
int launch(const void* lv, const void* tv, void* ov, int64_t M, int64_t N, cudaStream_t stream) {
  int device = 0, warp = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err == cudaSuccess) err = cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device);
  if (err != cudaSuccess) return static_cast<int>(err);
  if (warp <= 0 || kWarpRowsThreads % warp != 0) return static_cast<int>(cudaErrorInvalidValue);
  const T* logits = static_cast<const T*>(lv);
  const T* target = static_cast<const T*>(tv);
  T* out = static_cast<T*>(ov);
  constexpr int kVec = 16 / static_cast<int>(sizeof(T));
  const bool aligned = reinterpret_cast<uintptr_t>(logits) % 16 == 0 &&
                       reinterpret_cast<uintptr_t>(target) % 16 == 0 && N % kVec == 0;
  return aligned ? launch_vec<T, kVec>(logits, target, out, M, N, warp, stream)
                 : launch_vec<T, 1>(logits, target, out, M, N, warp, stream);
}

}  // namespace

extern "C" int aka_kl_div_rows(const void* logits, const void* target, void* out, int64_t M,
                               int64_t N, int dtype, void* stream) {
  if (M <= 0 || N <= 0) return 0;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(logits, target, out, M, N, s);
    case 1: return launch<__half>(logits, target, out, M, N, s);
    case 2: return launch<__nv_bfloat16>(logits, target, out, M, N, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
