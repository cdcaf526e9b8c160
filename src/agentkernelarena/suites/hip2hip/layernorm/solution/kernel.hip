// hip2hip/layernorm, solution: each row read once into registers, 16-byte packs, shuffles.
//
// Launcher contract as in the baseline (binding.cpp declares it):
//   extern "C" int aka_layernorm_forward(const void* x, const void* w, const void* b, void* y,
//                                        int64_t M, int64_t N, float eps, int dtype,
//                                        void* stream);
//
// A row belongs to a group of G threads (a power of two, blockDim.x), each holding up to
// kMaxElems of its elements in registers as packs of VEC (16 bytes when N is a multiple of
// VEC and the pointers are aligned; single elements otherwise). The mean and then the
// variance around it are reduced from those registers (the exact two-pass formula, no
// cancellation), so x is read from memory once and y written once. G is just large enough
// for the row: rows of G < 256 threads share a block (blockDim.y rows), wider ones get a block
// each (G up to 1024). Groups of at most a wavefront reduce with __shfl_xor alone, wider ones
// also across their wavefronts through shared memory. Rows longer than
// 1024 * kMaxElems = 16384 elements stream from memory three times instead (most of it from
// the L2 cache); 16 floats per thread keep 1024-thread blocks within 64 registers a thread.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

constexpr int kRowsThreads = 256;  // block size when several rows share a block
constexpr int kMaxGroup = 1024;    // widest group: one row per block
constexpr int kMaxElems = 16;      // elements a thread keeps in registers
constexpr int kMaxPartials = 32;   // per-wavefront partials: 1024 threads / >= 32 lanes

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

// Sum over the blockDim.x threads of a row group (a power of two); all of them get it.
// Groups of at most a wavefront stay inside it (G divides warpSize, groups are aligned), so
// shuffles suffice; wider groups are whole wavefronts and combine them in shared memory
// (one slot per wavefront of the block; a group's wavefronts are consecutive).
__device__ __forceinline__ float group_sum(float v, float* partials) {
  const int G = blockDim.x;
  const int width = G < warpSize ? G : warpSize;
  for (int offset = width / 2; offset > 0; offset /= 2) v += __shfl_xor(v, offset);
  if (G <= warpSize) return v;
  const int linear = threadIdx.y * G + threadIdx.x;
  if (linear % warpSize == 0) partials[linear / warpSize] = v;
  __syncthreads();
  const int first = threadIdx.y * (G / warpSize);
  float total = 0.f;
  for (int i = 0; i < G / warpSize; ++i) total += partials[first + i];
  __syncthreads();  // partials are reused by the next reduction
  return total;
}

template <typename T, int VEC>
__global__ void __launch_bounds__(kMaxGroup)
    layernorm_cached(const T* __restrict__ x, const T* __restrict__ w, const T* __restrict__ b,
                     T* __restrict__ y, int64_t M, int64_t N, float eps) {
  constexpr int PPT = kMaxElems / VEC;  // packs per thread
  using P = Pack<T, VEC>;
  __shared__ float partials[kMaxPartials];
  const int64_t packs = N / VEC;
  const int64_t row = static_cast<int64_t>(blockIdx.x) * blockDim.y + threadIdx.y;
  // Threads of a row past M stay to the end: their group's shuffles need every lane.
  const bool active = row < M;
  const int64_t offset = (active ? row : 0) * N;
  const P* xr = reinterpret_cast<const P*>(x + offset);

  float v[PPT][VEC];
  float sum = 0.f;
#pragma unroll
  for (int k = 0; k < PPT; ++k) {
    const int64_t p = threadIdx.x + static_cast<int64_t>(k) * blockDim.x;
    if (active && p < packs) {
      const P pack = xr[p];
#pragma unroll
      for (int e = 0; e < VEC; ++e) {
        v[k][e] = to_float(pack.v[e]);
        sum += v[k][e];
      }
    } else {
#pragma unroll
      for (int e = 0; e < VEC; ++e) v[k][e] = 0.f;
    }
  }
  const float inv_n = 1.f / static_cast<float>(N);
  const float mean = group_sum(sum, partials) * inv_n;

  float sq = 0.f;
#pragma unroll
  for (int k = 0; k < PPT; ++k) {
    const int64_t p = threadIdx.x + static_cast<int64_t>(k) * blockDim.x;
    if (active && p < packs) {
#pragma unroll
      for (int e = 0; e < VEC; ++e) {
        const float d = v[k][e] - mean;
        sq += d * d;
      }
    }
  }
  const float rstd = rsqrtf(group_sum(sq, partials) * inv_n + eps);

  if (!active) return;
  const P* wp = reinterpret_cast<const P*>(w);
  const P* bp = reinterpret_cast<const P*>(b);
  P* yr = reinterpret_cast<P*>(y + offset);
#pragma unroll
  for (int k = 0; k < PPT; ++k) {
    const int64_t p = threadIdx.x + static_cast<int64_t>(k) * blockDim.x;
    if (p < packs) {
      const P wk = wp[p];
      const P bk = bp[p];
      P out;
#pragma unroll
      for (int e = 0; e < VEC; ++e) {
        out.v[e] = from_float<T>((v[k][e] - mean) * rstd * to_float(wk.v[e]) + to_float(bk.v[e]));
      }
      yr[p] = out;
    }
  }
}

// Rows too long for registers: one block of kMaxGroup threads per row, three passes over it
// (the later ones mostly hit the L2 cache).
template <typename T, int VEC>
__global__ void __launch_bounds__(kMaxGroup)
    layernorm_streamed(const T* __restrict__ x, const T* __restrict__ w,
                       const T* __restrict__ b, T* __restrict__ y, int64_t N, float eps) {
  using P = Pack<T, VEC>;
  __shared__ float partials[kMaxPartials];
  const int64_t packs = N / VEC;
  const int64_t offset = static_cast<int64_t>(blockIdx.x) * N;
  const P* xr = reinterpret_cast<const P*>(x + offset);

  float sum = 0.f;
  for (int64_t p = threadIdx.x; p < packs; p += blockDim.x) {
    const P pack = xr[p];
#pragma unroll
    for (int e = 0; e < VEC; ++e) sum += to_float(pack.v[e]);
  }
  const float inv_n = 1.f / static_cast<float>(N);
  const float mean = group_sum(sum, partials) * inv_n;

  float sq = 0.f;
  for (int64_t p = threadIdx.x; p < packs; p += blockDim.x) {
    const P pack = xr[p];
#pragma unroll
    for (int e = 0; e < VEC; ++e) {
      const float d = to_float(pack.v[e]) - mean;
      sq += d * d;
    }
  }
  const float rstd = rsqrtf(group_sum(sq, partials) * inv_n + eps);

  const P* wp = reinterpret_cast<const P*>(w);
  const P* bp = reinterpret_cast<const P*>(b);
  P* yr = reinterpret_cast<P*>(y + offset);
  for (int64_t p = threadIdx.x; p < packs; p += blockDim.x) {
    const P pack = xr[p];
    const P wk = wp[p];
    const P bk = bp[p];
    P out;
#pragma unroll
    for (int e = 0; e < VEC; ++e) {
      out.v[e] = from_float<T>((to_float(pack.v[e]) - mean) * rstd * to_float(wk.v[e]) +
                               to_float(bk.v[e]));
    }
    yr[p] = out;
  }
}

template <typename T, int VEC>
int launch_vec(const T* x, const T* w, const T* b, T* y, int64_t M, int64_t N, float eps,
               hipStream_t stream) {
  constexpr int PPT = kMaxElems / VEC;
  const int64_t packs = N / VEC;
  int64_t group = 1;
  while (group * PPT < packs) group *= 2;
  if (group > kMaxGroup) {
    if (M > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
    hipLaunchKernelGGL(HIP_KERNEL_NAME(layernorm_streamed<T, VEC>),
                       dim3(static_cast<unsigned>(M)), dim3(kMaxGroup), 0, stream, x, w, b, y,
                       N, eps);
    return static_cast<int>(hipGetLastError());
  }
  const int g = static_cast<int>(group);
  const int rows = g < kRowsThreads ? kRowsThreads / g : 1;
  const int64_t blocks = (M + rows - 1) / rows;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(layernorm_cached<T, VEC>),
                     dim3(static_cast<unsigned>(blocks)), dim3(g, rows), 0, stream, x, w, b, y,
                     M, N, eps);
  return static_cast<int>(hipGetLastError());
}

template <typename T>
int launch(const void* xv, const void* wv, const void* bv, void* yv, int64_t M, int64_t N,
           float eps, hipStream_t stream) {
  const T* x = static_cast<const T*>(xv);
  const T* w = static_cast<const T*>(wv);
  const T* b = static_cast<const T*>(bv);
  T* y = static_cast<T*>(yv);
  constexpr int kVec = 16 / static_cast<int>(sizeof(T));
  const bool aligned = N % kVec == 0 && reinterpret_cast<uintptr_t>(x) % 16 == 0 &&
                       reinterpret_cast<uintptr_t>(w) % 16 == 0 &&
                       reinterpret_cast<uintptr_t>(b) % 16 == 0 &&
                       reinterpret_cast<uintptr_t>(y) % 16 == 0;
  return aligned ? launch_vec<T, kVec>(x, w, b, y, M, N, eps, stream)
                 : launch_vec<T, 1>(x, w, b, y, M, N, eps, stream);
}

}  // namespace

extern "C" int aka_layernorm_forward(const void* x, const void* w, const void* b, void* y,
                                     int64_t M, int64_t N, float eps, int dtype, void* stream) {
  if (M <= 0 || N <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, w, b, y, M, N, eps, s);
    case 1: return launch<__half>(x, w, b, y, M, N, eps, s);
    case 2: return launch<bf16_t>(x, w, b, y, M, N, eps, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
