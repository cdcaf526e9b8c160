// torch2hip/add_layernorm, solution: one read of x and residual, one write of y, rows in
// registers.
//
// Launcher contract as in the skeleton (binding.cpp declares it):
//   extern "C" int aka_add_layernorm(const void* x, const void* residual, const void* w,
//                                    const void* b, void* y, int64_t M, int64_t N, float eps,
//                                    int dtype, void* stream);
//
// Eager PyTorch writes h = x + residual to memory and LayerNorm reads it back (two kernels,
// five M x N transfers); this kernel makes three. A group of `tpr` consecutive threads (a
// power of two, sized from N) owns a row: each thread loads up to kCache 16-byte packs of x
// and residual (a row of any length is split into the few single elements before its first
// 16-byte boundary, whole packs, and a few single elements at its end; all single elements
// only if a base pointer is misaligned, kCacheScalar of them per thread), all loads issued
// before any arithmetic, and keeps h in float32 registers; the group sums
// h - h[0] and its square in one reduction (shuffles, then LDS across wavefronts; the shift
// by the row's first element keeps the one-pass variance from cancelling), and the same
// registers are normalized and written. Short rows share a block; rows longer than the cache
// re-read their tail (from L2). Nothing depends on the wavefront size.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

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

template <typename T, int VEC>
struct alignas(sizeof(T) * VEC) Pack {
  T v[VEC];
};

constexpr int kBlock = 256;          // threads per block when several rows share one
constexpr int kMaxRowThreads = 1024;  // threads of one row, at most (then one row per block)
constexpr int kCache = 4;             // 16-byte packs per thread kept in registers
constexpr int kCacheScalar = 16;      // single elements per thread kept (unaligned rows)

// Threads per row: enough that `cached` packs per thread cover the row (up to
// kMaxRowThreads), and at least a few so that a row's loads coalesce.
inline int threads_per_row(int64_t packs, int cached) {
  int tpr = 1;
  while (tpr < kMaxRowThreads && static_cast<int64_t>(tpr) * cached < packs) tpr *= 2;
  while (tpr < 16 && tpr < packs) tpr *= 2;
  return tpr;
}

// Sums of a and b over the `tpr` threads of a row, both at once (one pair of barriers):
// a butterfly of
// shuffles within a wavefront, LDS across wavefronts.
__device__ __forceinline__ void group_sum2(float& a, float& b, int tpr, float* red) {
  const int ws = warpSize;
  for (int o = (tpr < ws ? tpr : ws) / 2; o > 0; o >>= 1) {
    a += __shfl_xor(a, o);
    b += __shfl_xor(b, o);
  }
  if (tpr <= ws) return;
  const int wave = threadIdx.x / ws;
  __syncthreads();  // the previous call's readers are done with red
  if (threadIdx.x % ws == 0) {
    red[wave] = a;
    red[32 + wave] = b;
  }
  __syncthreads();
  const int per = tpr / ws, first = wave / per * per;
  a = 0.f;
  b = 0.f;
  for (int i = 0; i < per; ++i) {
    a += red[first + i];
    b += red[32 + first + i];
  }
}

template <typename T, int VEC>
__device__ __forceinline__ void add_pack(float (&h)[VEC], const Pack<T, VEC>& a,
                                         const Pack<T, VEC>& b) {
#pragma unroll
  for (int j = 0; j < VEC; ++j) h[j] = to_float(a.v[j]) + to_float(b.v[j]);
}

// VEC consecutive values of a weight vector from element n on: one 16-byte load where n is
// a multiple of VEC, single loads otherwise (rows that start off a 16-byte boundary).
template <typename T, int VEC>
__device__ __forceinline__ void load_vec(float (&out)[VEC], const T* v, int64_t n) {
  if (n % VEC == 0) {
    const Pack<T, VEC> p = *reinterpret_cast<const Pack<T, VEC>*>(v + n);
#pragma unroll
    for (int j = 0; j < VEC; ++j) out[j] = to_float(p.v[j]);
  } else {
#pragma unroll
    for (int j = 0; j < VEC; ++j) out[j] = to_float(v[n + j]);
  }
}

template <typename T, int VEC, int MAX_THREADS>
__global__ void __launch_bounds__(MAX_THREADS)
    add_layernorm_rows(const T* __restrict__ x, const T* __restrict__ residual,
                       const T* __restrict__ w, const T* __restrict__ b, T* __restrict__ y,
                       int64_t M, int64_t N, int tpr, float eps) {
  using P = Pack<T, VEC>;
  constexpr int KC = VEC == 1 ? kCacheScalar : kCache;  // cached packs per thread
  __shared__ float red[64];  // two partials per wavefront: at most 2 x 1024 / 32
  const int lane = threadIdx.x % tpr;
  const int64_t m = static_cast<int64_t>(blockIdx.x) * (blockDim.x / tpr) + threadIdx.x / tpr;
  const bool live = m < M;
  // A row is `head` single elements up to its first 16-byte boundary (x, residual and y rows
  // share their alignment), whole packs, and `rest` single elements after them, so rows of
  // any length N read and write in packs. The head + rest (< 2 * VEC) elements take one
  // thread each.
  const int64_t misalign = static_cast<int64_t>(reinterpret_cast<uintptr_t>(x + m * N) % 16);
  const int64_t head_elems = (16 - misalign) % 16 / static_cast<int64_t>(sizeof(T)) % VEC;
  const int64_t head = head_elems < N ? head_elems : N;
  const int64_t packs = (N - head) / VEC;
  const int64_t rest = N - head - packs * VEC;
  const int64_t tail = lane + static_cast<int64_t>(KC) * tpr;  // first pack not cached
  const P* xr = reinterpret_cast<const P*>(x + m * N + head);
  const P* rr = reinterpret_cast<const P*>(residual + m * N + head);
  P* yr = reinterpret_cast<P*>(y + m * N + head);
  const bool single = live && lane < head + rest;
  const int64_t ns = lane < head ? lane : head + packs * VEC + (lane - head);  // its element
  const float inv_n = 1.f / static_cast<float>(N);

  // Sums of h - shift and (h - shift)^2 with shift = h[0] (one broadcast load): a one-pass
  // variance that does not cancel when the row's mean is large against its spread.
  const float shift = live ? to_float(x[m * N]) + to_float(residual[m * N]) : 0.f;
  // All of the thread's loads first (predicated, all in flight at once), then the arithmetic.
  P xa[KC], ra[KC];
#pragma unroll
  for (int k = 0; k < KC; ++k) {
    const int64_t p = lane + static_cast<int64_t>(k) * tpr;
    if (live && p < packs) {
      xa[k] = xr[p];
      ra[k] = rr[p];
    }
  }
  const float hs = single ? to_float(x[m * N + ns]) + to_float(residual[m * N + ns]) : 0.f;
  float h[KC][VEC];
  float v[VEC];
  float s1 = single ? hs - shift : 0.f;
  float s2 = s1 * s1;
#pragma unroll
  for (int k = 0; k < KC; ++k) {
    const int64_t p = lane + static_cast<int64_t>(k) * tpr;
    if (live && p < packs) {
      add_pack(h[k], xa[k], ra[k]);
#pragma unroll
      for (int j = 0; j < VEC; ++j) {
        const float d = h[k][j] - shift;
        s1 += d;
        s2 += d * d;
      }
    }
  }
  for (int64_t p = tail; live && p < packs; p += tpr) {
    add_pack(v, xr[p], rr[p]);
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
      const float d = v[j] - shift;
      s1 += d;
      s2 += d * d;
    }
  }
  group_sum2(s1, s2, tpr, red);
  const float d_mean = s1 * inv_n;
  const float mean = shift + d_mean;
  const float rstd = rsqrtf(fmaxf(s2 * inv_n - d_mean * d_mean, 0.f) + eps);

  float wv[VEC], bv[VEC];
  if (single) {
    const float o = (hs - mean) * rstd * to_float(w[ns]) + to_float(b[ns]);
    y[m * N + ns] = from_float<T>(o);
  }
#pragma unroll
  for (int k = 0; k < KC; ++k) {
    const int64_t p = lane + static_cast<int64_t>(k) * tpr;
    if (live && p < packs) {
      load_vec(wv, w, head + p * VEC);
      load_vec(bv, b, head + p * VEC);
      P out;
#pragma unroll
      for (int j = 0; j < VEC; ++j) {
        out.v[j] = from_float<T>((h[k][j] - mean) * rstd * wv[j] + bv[j]);
      }
      yr[p] = out;
    }
  }
  for (int64_t p = tail; live && p < packs; p += tpr) {
    add_pack(v, xr[p], rr[p]);
    load_vec(wv, w, head + p * VEC);
    load_vec(bv, b, head + p * VEC);
    P out;
#pragma unroll
    for (int j = 0; j < VEC; ++j) out.v[j] = from_float<T>((v[j] - mean) * rstd * wv[j] + bv[j]);
    yr[p] = out;
  }
}

template <typename T, int VEC>
int launch_vec(const T* x, const T* residual, const T* w, const T* b, T* y, int64_t M, int64_t N,
               float eps, hipStream_t stream) {
  // At least 16 threads per row: the single elements around the packs take one thread each.
  int tpr = threads_per_row(N / VEC, VEC == 1 ? kCacheScalar : kCache);
  if (tpr < 16) tpr = 16;
  const int threads = tpr > kBlock ? tpr : kBlock;
  const int64_t rows_per_block = threads / tpr;
  const int64_t blocks = (M + rows_per_block - 1) / rows_per_block;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  const dim3 grid(static_cast<unsigned>(blocks));
  // Register budget: blocks of kBlock threads may use many registers per thread, only the
  // kernels for long rows (up to kMaxRowThreads threads) are held to fewer.
  if (threads <= kBlock) {
    hipLaunchKernelGGL(HIP_KERNEL_NAME(add_layernorm_rows<T, VEC, kBlock>), grid, dim3(threads),
                       0, stream, x, residual, w, b, y, M, N, tpr, eps);
  } else {
    hipLaunchKernelGGL(HIP_KERNEL_NAME(add_layernorm_rows<T, VEC, kMaxRowThreads>), grid,
                       dim3(threads), 0, stream, x, residual, w, b, y, M, N, tpr, eps);
  }
  return static_cast<int>(hipGetLastError());
}

template <typename T>
int launch(const void* xv, const void* rv, const void* wv, const void* bv, void* yv, int64_t M,
           int64_t N, float eps, hipStream_t stream) {
  const T* x = static_cast<const T*>(xv);
  const T* residual = static_cast<const T*>(rv);
  const T* w = static_cast<const T*>(wv);
  const T* b = static_cast<const T*>(bv);
  T* y = static_cast<T*>(yv);
  constexpr int kVec = 16 / static_cast<int>(sizeof(T));
  const bool aligned = reinterpret_cast<uintptr_t>(x) % 16 == 0 &&
                       reinterpret_cast<uintptr_t>(residual) % 16 == 0 &&
                       reinterpret_cast<uintptr_t>(w) % 16 == 0 &&
                       reinterpret_cast<uintptr_t>(b) % 16 == 0 &&
                       reinterpret_cast<uintptr_t>(y) % 16 == 0;
  return aligned ? launch_vec<T, kVec>(x, residual, w, b, y, M, N, eps, stream)
                 : launch_vec<T, 1>(x, residual, w, b, y, M, N, eps, stream);
}

}  // namespace

extern "C" int aka_add_layernorm(const void* x, const void* residual, const void* w,
                                 const void* b, void* y, int64_t M, int64_t N, float eps,
                                 int dtype, void* stream) {
  if (M <= 0 || N <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, residual, w, b, y, M, N, eps, s);
    case 1: return launch<__half>(x, residual, w, b, y, M, N, eps, s);
    case 2: return launch<bf16_t>(x, residual, w, b, y, M, N, eps, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
