// hip2hip/softmax, solution: each row read once into registers, 16-byte packs, shuffles.
//
// Launcher contract as in the baseline (binding.cpp declares it):
//   extern "C" int aka_softmax_rows(const void* x, void* y, int64_t M, int64_t N, int dtype,
//                                   void* stream);
//
// A row belongs to a group of G threads (a power of two, blockDim.x), each holding up to
// kMaxElems of its elements in registers as packs of VEC (16 bytes when N is a multiple of
// VEC and the pointers are aligned; single elements otherwise): x is read once, the
// exponentials are computed once and kept, y is written once. G is just large enough for the
// row: rows of G < 256 threads share a block (blockDim.y rows), wider ones get a block each
// (G up to 1024). Groups of at most a wavefront reduce with __shfl_xor alone, wider ones also
// across their wavefronts through shared memory. Rows longer than 1024 * kMaxElems = 16384
// elements take two passes instead: an online (max, sum of exponentials) per thread, then the
// output.
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

struct MaxOp {
  __device__ __forceinline__ float operator()(float a, float b) const { return fmaxf(a, b); }
};
struct SumOp {
  __device__ __forceinline__ float operator()(float a, float b) const { return a + b; }
};

// op over the blockDim.x threads of a row group (a power of two); all of them get it.
// Groups of at most a wavefront stay inside it (G divides warpSize, groups are aligned), so
// shuffles suffice; wider groups are whole wavefronts and combine them in shared memory
// (one slot per wavefront of the block; a group's wavefronts are consecutive).
template <typename Op>
__device__ __forceinline__ float group_reduce(float v, Op op, float* partials) {
  const int G = blockDim.x;
  const int width = G < warpSize ? G : warpSize;
  for (int offset = width / 2; offset > 0; offset /= 2) v = op(v, __shfl_xor(v, offset));
  if (G <= warpSize) return v;
  const int linear = threadIdx.y * G + threadIdx.x;
  if (linear % warpSize == 0) partials[linear / warpSize] = v;
  __syncthreads();
  const int first = threadIdx.y * (G / warpSize);
  float total = partials[first];
  for (int i = 1; i < G / warpSize; ++i) total = op(total, partials[first + i]);
  __syncthreads();  // partials are reused by the next reduction
  return total;
}

template <typename T, int VEC>
__global__ void __launch_bounds__(kMaxGroup)
    softmax_cached(const T* __restrict__ x, T* __restrict__ y, int64_t M, int64_t N) {
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
  float m = -INFINITY;
#pragma unroll
  for (int k = 0; k < PPT; ++k) {
    const int64_t p = threadIdx.x + static_cast<int64_t>(k) * blockDim.x;
    if (active && p < packs) {
      const P pack = xr[p];
#pragma unroll
      for (int e = 0; e < VEC; ++e) {
        v[k][e] = to_float(pack.v[e]);
        m = fmaxf(m, v[k][e]);
      }
    } else {
#pragma unroll
      for (int e = 0; e < VEC; ++e) v[k][e] = -INFINITY;  // exp(-inf - max) = 0
    }
  }
  const float row_max = group_reduce(m, MaxOp(), partials);
  // An inactive group's max is -inf: keep its arithmetic finite (its results are not stored).
  const float shift = active ? row_max : 0.f;

  float sum = 0.f;
#pragma unroll
  for (int k = 0; k < PPT; ++k) {
#pragma unroll
    for (int e = 0; e < VEC; ++e) {
      v[k][e] = __expf(v[k][e] - shift);
      sum += v[k][e];
    }
  }
  const float inv_sum = 1.f / group_reduce(sum, SumOp(), partials);

  if (!active) return;
  P* yr = reinterpret_cast<P*>(y + offset);
#pragma unroll
  for (int k = 0; k < PPT; ++k) {
    const int64_t p = threadIdx.x + static_cast<int64_t>(k) * blockDim.x;
    if (p < packs) {
      P out;
#pragma unroll
      for (int e = 0; e < VEC; ++e) out.v[e] = from_float<T>(v[k][e] * inv_sum);
      yr[p] = out;
    }
  }
}

// Rows too long for registers: one block of kMaxGroup threads per row. Pass one keeps a
// running maximum and a sum of exponentials relative to it per thread (one rescale per pack);
// pass two writes the output (mostly from the L2 cache).
template <typename T, int VEC>
__global__ void __launch_bounds__(kMaxGroup)
    softmax_streamed(const T* __restrict__ x, T* __restrict__ y, int64_t N) {
  using P = Pack<T, VEC>;
  __shared__ float partials[kMaxPartials];
  const int64_t packs = N / VEC;
  const int64_t offset = static_cast<int64_t>(blockIdx.x) * N;
  const P* xr = reinterpret_cast<const P*>(x + offset);

  float m = -INFINITY, s = 0.f;
  for (int64_t p = threadIdx.x; p < packs; p += blockDim.x) {
    const P pack = xr[p];
    float v[VEC];
    float pm = -INFINITY;
#pragma unroll
    for (int e = 0; e < VEC; ++e) {
      v[e] = to_float(pack.v[e]);
      pm = fmaxf(pm, v[e]);
    }
    const float nm = fmaxf(m, pm);
    s = (m == -INFINITY) ? 0.f : s * __expf(m - nm);
#pragma unroll
    for (int e = 0; e < VEC; ++e) s += __expf(v[e] - nm);
    m = nm;
  }
  const float row_max = group_reduce(m, MaxOp(), partials);
  // Threads that saw no element hold (-inf, 0) and contribute nothing.
  const float mine = (m == -INFINITY) ? 0.f : s * __expf(m - row_max);
  const float inv_sum = 1.f / group_reduce(mine, SumOp(), partials);

  P* yr = reinterpret_cast<P*>(y + offset);
  for (int64_t p = threadIdx.x; p < packs; p += blockDim.x) {
    const P pack = xr[p];
    P out;
#pragma unroll
    for (int e = 0; e < VEC; ++e) {
      out.v[e] = from_float<T>(__expf(to_float(pack.v[e]) - row_max) * inv_sum);
    }
    yr[p] = out;
  }
}

template <typename T, int VEC>
int launch_vec(const T* x, T* y, int64_t M, int64_t N, hipStream_t stream) {
  constexpr int PPT = kMaxElems / VEC;
  const int64_t packs = N / VEC;
  int64_t group = 1;
  while (group * PPT < packs) group *= 2;
  if (group > kMaxGroup) {
    if (M > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
    hipLaunchKernelGGL(HIP_KERNEL_NAME(softmax_streamed<T, VEC>), dim3(static_cast<unsigned>(M)),
                       dim3(kMaxGroup), 0, stream, x, y, N);
    return static_cast<int>(hipGetLastError());
  }
  const int g = static_cast<int>(group);
  const int rows = g < kRowsThreads ? kRowsThreads / g : 1;
  const int64_t blocks = (M + rows - 1) / rows;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(softmax_cached<T, VEC>), dim3(static_cast<unsigned>(blocks)),
                     dim3(g, rows), 0, stream, x, y, M, N);
  return static_cast<int>(hipGetLastError());
}

template <typename T>
int launch(const void* xv, void* yv, int64_t M, int64_t N, hipStream_t stream) {
  const T* x = static_cast<const T*>(xv);
  T* y = static_cast<T*>(yv);
  constexpr int kVec = 16 / static_cast<int>(sizeof(T));
  const bool aligned = N % kVec == 0 && reinterpret_cast<uintptr_t>(x) % 16 == 0 &&
                       reinterpret_cast<uintptr_t>(y) % 16 == 0;
  return aligned ? launch_vec<T, kVec>(x, y, M, N, stream) : launch_vec<T, 1>(x, y, M, N, stream);
}

}  // namespace

extern "C" int aka_softmax_rows(const void* x, void* y, int64_t M, int64_t N, int dtype,
                                void* stream) {
  if (M <= 0 || N <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, y, M, N, s);
    case 1: return launch<__half>(x, y, M, N, s);
    case 2: return launch<bf16_t>(x, y, M, N, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
