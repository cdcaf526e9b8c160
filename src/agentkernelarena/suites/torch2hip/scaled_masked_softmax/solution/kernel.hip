// torch2hip/scaled_masked_softmax, solution: one read of the scores, one write of the
// probabilities, rows in registers, each mask row read once for all heads.
//
// Launcher contract as in the skeleton (binding.cpp declares it):
//   extern "C" int aka_scaled_masked_softmax(const void* scores, const void* mask, void* y,
//                                            int64_t B, int64_t H, int64_t S, float scale,
//                                            int dtype, void* stream);
//
// Eager PyTorch runs four kernels (scale, masked_fill, softmax into a float32 tensor, cast
// back) and writes three full-size temporaries. Here a group of `tpr` consecutive threads (a
// power of two, sized from S) owns one query (b, q) and walks its H heads: the mask row is
// loaded once, as one bit per element of each of the thread's kCache packs (16-byte packs of
// scores; kCacheScalar single elements when S is not a multiple of the pack or a pointer is
// misaligned).
// For each head the thread keeps its scaled, masked scores in float32 registers, the group
// takes their maximum, turns them into exponentials in place and sums them (shuffles, then LDS
// across wavefronts), and the registers are scaled by the reciprocal of the sum and written.
// Rows longer than the registers hold re-read their tail (from L2). Nothing depends on the
// wavefront size.
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

__device__ __forceinline__ float combine(float a, float b, bool is_max) {
  return is_max ? fmaxf(a, b) : a + b;
}

// Sum (or maximum) of v over the `tpr` threads of a row: tpr is a power of two and a row's
// threads are consecutive in a 1-D block. Within a wavefront a butterfly of shuffles; across
// wavefronts (tpr > warpSize) the wavefronts' partials go through LDS and every thread
// combines those of its row. Every thread of the block calls it (it may hold barriers).
__device__ __forceinline__ float group_reduce(float v, int tpr, float* red, bool is_max) {
  const int ws = warpSize;
  for (int o = (tpr < ws ? tpr : ws) / 2; o > 0; o >>= 1) {
    v = combine(v, __shfl_xor(v, o), is_max);
  }
  if (tpr <= ws) return v;
  const int wave = threadIdx.x / ws;
  __syncthreads();  // the previous call's readers are done with red
  if (threadIdx.x % ws == 0) red[wave] = v;
  __syncthreads();
  const int per = tpr / ws, first = wave / per * per;
  float total = red[first];
  for (int i = 1; i < per; ++i) total = combine(total, red[first + i], is_max);
  return total;
}

// Threads per row: enough that `cached` packs per thread cover the row (up to
// kMaxRowThreads), and at least a few so that a row's loads coalesce.
inline int threads_per_row(int64_t packs, int cached) {
  int tpr = 1;
  while (tpr < kMaxRowThreads && static_cast<int64_t>(tpr) * cached < packs) tpr *= 2;
  while (tpr < 16 && tpr < packs) tpr *= 2;
  return tpr;
}

template <typename T, int VEC, int MAX_THREADS>
__global__ void __launch_bounds__(MAX_THREADS)
    softmax_rows(const T* __restrict__ scores, const unsigned char* __restrict__ mask,
                 T* __restrict__ y, int64_t B, int64_t H, int64_t S, int tpr, float scale) {
  using P = Pack<T, VEC>;
  constexpr int KC = VEC == 1 ? kCacheScalar : kCache;  // cached packs per thread
  using MP = Pack<unsigned char, VEC>;
  __shared__ float red[32];  // one partial per wavefront: at most 1024 / 32
  const float neg_inf = -INFINITY;
  const int lane = threadIdx.x % tpr;
  const int64_t g = static_cast<int64_t>(blockIdx.x) * (blockDim.x / tpr) + threadIdx.x / tpr;
  const bool live = g < B * S;  // the group of query q of sequence b
  const int64_t b = g / S, q = g % S;
  const int64_t packs = S / VEC;
  const int64_t tail = lane + static_cast<int64_t>(KC) * tpr;  // first pack not cached
  const MP* mr = reinterpret_cast<const MP*>(mask + g * S);

  unsigned keep[KC];  // bit j: element j of the pack is not masked
#pragma unroll
  for (int k = 0; k < KC; ++k) {
    const int64_t p = lane + static_cast<int64_t>(k) * tpr;
    keep[k] = 0;
    if (live && p < packs) {
      const MP mp = mr[p];
#pragma unroll
      for (int j = 0; j < VEC; ++j) keep[k] |= (mp.v[j] == 0 ? 1u : 0u) << j;
    }
  }

  for (int64_t h = 0; h < H; ++h) {
    const int64_t row = (b * H + h) * S + q;
    const P* sr = reinterpret_cast<const P*>(scores + row * S);
    P* yr = reinterpret_cast<P*>(y + row * S);
    // All of the thread's loads first (predicated, all in flight at once), then the arithmetic.
    P raw[KC];
#pragma unroll
    for (int k = 0; k < KC; ++k) {
      const int64_t p = lane + static_cast<int64_t>(k) * tpr;
      if (live && p < packs) raw[k] = sr[p];
    }
    float c[KC][VEC];
    float mx = neg_inf;
#pragma unroll
    for (int k = 0; k < KC; ++k) {
      const int64_t p = lane + static_cast<int64_t>(k) * tpr;
      if (live && p < packs) {
#pragma unroll
        for (int j = 0; j < VEC; ++j) {
          c[k][j] = (keep[k] >> j) & 1u ? to_float(raw[k].v[j]) * scale : neg_inf;
          mx = fmaxf(mx, c[k][j]);
        }
      }
    }
    for (int64_t p = tail; live && p < packs; p += tpr) {
      const P sp = sr[p];
      const MP mp = mr[p];
#pragma unroll
      for (int j = 0; j < VEC; ++j) {
        if (mp.v[j] == 0) mx = fmaxf(mx, to_float(sp.v[j]) * scale);
      }
    }
    mx = group_reduce(mx, tpr, red, true);

    float sum = 0.f;
#pragma unroll
    for (int k = 0; k < KC; ++k) {
      const int64_t p = lane + static_cast<int64_t>(k) * tpr;
      if (live && p < packs) {
#pragma unroll
        for (int j = 0; j < VEC; ++j) {
          c[k][j] = __expf(c[k][j] - mx);  // exp(-inf) = 0 for masked keys
          sum += c[k][j];
        }
      }
    }
    for (int64_t p = tail; live && p < packs; p += tpr) {
      const P sp = sr[p];
      const MP mp = mr[p];
#pragma unroll
      for (int j = 0; j < VEC; ++j) {
        if (mp.v[j] == 0) sum += __expf(to_float(sp.v[j]) * scale - mx);
      }
    }
    const float inv = 1.f / group_reduce(sum, tpr, red, false);

#pragma unroll
    for (int k = 0; k < KC; ++k) {
      const int64_t p = lane + static_cast<int64_t>(k) * tpr;
      if (live && p < packs) {
        P out;
#pragma unroll
        for (int j = 0; j < VEC; ++j) out.v[j] = from_float<T>(c[k][j] * inv);
        yr[p] = out;
      }
    }
    for (int64_t p = tail; live && p < packs; p += tpr) {
      const P sp = sr[p];
      const MP mp = mr[p];
      P out;
#pragma unroll
      for (int j = 0; j < VEC; ++j) {
        const float e = mp.v[j] == 0 ? __expf(to_float(sp.v[j]) * scale - mx) : 0.f;
        out.v[j] = from_float<T>(e * inv);
      }
      yr[p] = out;
    }
  }
}

template <typename T, int VEC>
int launch_vec(const T* scores, const unsigned char* mask, T* y, int64_t B, int64_t H, int64_t S,
               float scale, hipStream_t stream) {
  const int tpr = threads_per_row(S / VEC, VEC == 1 ? kCacheScalar : kCache);
  const int threads = tpr > kBlock ? tpr : kBlock;
  const int64_t groups_per_block = threads / tpr;
  const int64_t blocks = (B * S + groups_per_block - 1) / groups_per_block;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  const dim3 grid(static_cast<unsigned>(blocks));
  // Register budget: blocks of kBlock threads may use many registers per thread, only the
  // kernels for long rows (up to kMaxRowThreads threads) are held to fewer.
  if (threads <= kBlock) {
    hipLaunchKernelGGL(HIP_KERNEL_NAME(softmax_rows<T, VEC, kBlock>), grid, dim3(threads), 0,
                       stream, scores, mask, y, B, H, S, tpr, scale);
  } else {
    hipLaunchKernelGGL(HIP_KERNEL_NAME(softmax_rows<T, VEC, kMaxRowThreads>), grid,
                       dim3(threads), 0, stream, scores, mask, y, B, H, S, tpr, scale);
  }
  return static_cast<int>(hipGetLastError());
}

template <typename T>
int launch(const void* sv, const void* mv, void* yv, int64_t B, int64_t H, int64_t S,
           float scale, hipStream_t stream) {
  const T* scores = static_cast<const T*>(sv);
  const unsigned char* mask = static_cast<const unsigned char*>(mv);
  T* y = static_cast<T*>(yv);
  constexpr int kVec = 16 / static_cast<int>(sizeof(T));
  const bool aligned = reinterpret_cast<uintptr_t>(scores) % 16 == 0 &&
                       reinterpret_cast<uintptr_t>(mask) % 16 == 0 &&
                       reinterpret_cast<uintptr_t>(y) % 16 == 0 && S % kVec == 0;
  return aligned ? launch_vec<T, kVec>(scores, mask, y, B, H, S, scale, stream)
                 : launch_vec<T, 1>(scores, mask, y, B, H, S, scale, stream);
}

}  // namespace

extern "C" int aka_scaled_masked_softmax(const void* scores, const void* mask, void* y,
                                         int64_t B, int64_t H, int64_t S, float scale, int dtype,
                                         void* stream) {
  if (B <= 0 || H <= 0 || S <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(scores, mask, y, B, H, S, scale, s);
    case 1: return launch<__half>(scores, mask, y, B, H, S, scale, s);
    case 2: return launch<bf16_t>(scores, mask, y, B, H, S, scale, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
