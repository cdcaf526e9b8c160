// hip2hip/fake_quant_int8, solution: each row read once into registers, 16-byte packs,
// shuffles.
//
// Launcher contract as in the baseline (binding.cpp declares it):
//   extern "C" int aka_fake_quant_int8(const void* x, void* y, int64_t M, int64_t N, int dtype,
//                                      void* stream);
//
// A row belongs to a group of G threads (a power of two, blockDim.x), each holding up to
// kMaxElems of its elements in registers as packs of VEC (16 bytes when N is a multiple of
// VEC and the pointers are aligned; single elements otherwise): x is read once and y written
// once. G is just large enough for the row: rows of G < 256 threads share a block (blockDim.y
// rows), wider ones get a block each (G up to 512). The absolute maximum of a group of at
// most a wavefront is reduced with __shfl_xor alone, of a wider group also across its
// wavefronts through shared memory. 32 elements per thread (two or four 16-byte loads in
// flight, and blocks of at most 512 threads so that they fit in registers) keep enough loads
// in flight while other rows of the CU reduce. Rows longer than 512 * kMaxElems = 16384
// elements are read twice instead (the second pass mostly from the L2 cache). The arithmetic
// is the baseline's: IEEE division by the scale and rintf.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

constexpr int kRowsThreads = 256;  // block size when several rows share a block
constexpr int kMaxGroup = 512;     // widest group: one row per block
constexpr int kMaxElems = 32;      // elements a thread keeps in registers
constexpr int kMaxPartials = 16;   // per-wavefront partials: 512 threads / >= 32 lanes

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

// Maximum over the blockDim.x threads of a row group (a power of two); all of them get it.
// Groups of at most a wavefront stay inside it (G divides warpSize, groups are aligned), so
// shuffles suffice; wider groups are whole wavefronts and combine them in shared memory
// (one slot per wavefront of the block; a group's wavefronts are consecutive).
__device__ __forceinline__ float group_max(float v, float* partials) {
  const int G = blockDim.x;
  const int width = G < warpSize ? G : warpSize;
  for (int offset = width / 2; offset > 0; offset /= 2) v = fmaxf(v, __shfl_xor(v, offset));
  if (G <= warpSize) return v;
  const int linear = threadIdx.y * G + threadIdx.x;
  if (linear % warpSize == 0) partials[linear / warpSize] = v;
  __syncthreads();
  const int first = threadIdx.y * (G / warpSize);
  float total = partials[first];
  for (int i = 1; i < G / warpSize; ++i) total = fmaxf(total, partials[first + i]);
  __syncthreads();  // keeps a later reduction from overwriting partials being read
  return total;
}

__device__ __forceinline__ float fake_quant(float v, float scale) {
  return fminf(fmaxf(rintf(v / scale), -127.f), 127.f) * scale;
}

template <typename T, int VEC>
__global__ void __launch_bounds__(kMaxGroup)
    fake_quant_cached(const T* __restrict__ x, T* __restrict__ y, int64_t M, int64_t N) {
  constexpr int PPT = kMaxElems / VEC;  // packs per thread
  using P = Pack<T, VEC>;
  __shared__ float partials[kMaxPartials];
  const int64_t packs = N / VEC;
  const int64_t row = static_cast<int64_t>(blockIdx.x) * blockDim.y + threadIdx.y;
  // Threads of a row past M stay until the reduction: their group's shuffles need every lane.
  const bool active = row < M;
  const int64_t offset = (active ? row : 0) * N;
  const P* xr = reinterpret_cast<const P*>(x + offset);

  float v[PPT][VEC];
  float m = 0.f;
#pragma unroll
  for (int k = 0; k < PPT; ++k) {
    const int64_t p = threadIdx.x + static_cast<int64_t>(k) * blockDim.x;
    if (active && p < packs) {
      const P pack = xr[p];
#pragma unroll
      for (int e = 0; e < VEC; ++e) {
        v[k][e] = to_float(pack.v[e]);
        m = fmaxf(m, fabsf(v[k][e]));
      }
    } else {
#pragma unroll
      for (int e = 0; e < VEC; ++e) v[k][e] = 0.f;
    }
  }
  const float scale = fmaxf(group_max(m, partials), 1e-8f) / 127.f;
  if (!active) return;

  P* yr = reinterpret_cast<P*>(y + offset);
#pragma unroll
  for (int k = 0; k < PPT; ++k) {
    const int64_t p = threadIdx.x + static_cast<int64_t>(k) * blockDim.x;
    if (p < packs) {
      P out;
#pragma unroll
      for (int e = 0; e < VEC; ++e) out.v[e] = from_float<T>(fake_quant(v[k][e], scale));
      yr[p] = out;
    }
  }
}

// Rows too long for registers: one block of kMaxGroup threads per row, two passes.
template <typename T, int VEC>
__global__ void __launch_bounds__(kMaxGroup)
    fake_quant_streamed(const T* __restrict__ x, T* __restrict__ y, int64_t N) {
  using P = Pack<T, VEC>;
  __shared__ float partials[kMaxPartials];
  const int64_t packs = N / VEC;
  const int64_t offset = static_cast<int64_t>(blockIdx.x) * N;
  const P* xr = reinterpret_cast<const P*>(x + offset);

  float m = 0.f;
  for (int64_t p = threadIdx.x; p < packs; p += blockDim.x) {
    const P pack = xr[p];
#pragma unroll
    for (int e = 0; e < VEC; ++e) m = fmaxf(m, fabsf(to_float(pack.v[e])));
  }
  const float scale = fmaxf(group_max(m, partials), 1e-8f) / 127.f;

  P* yr = reinterpret_cast<P*>(y + offset);
  for (int64_t p = threadIdx.x; p < packs; p += blockDim.x) {
    const P pack = xr[p];
    P out;
#pragma unroll
    for (int e = 0; e < VEC; ++e) out.v[e] = from_float<T>(fake_quant(to_float(pack.v[e]), scale));
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
    hipLaunchKernelGGL(HIP_KERNEL_NAME(fake_quant_streamed<T, VEC>),
                       dim3(static_cast<unsigned>(M)), dim3(kMaxGroup), 0, stream, x, y, N);
    return static_cast<int>(hipGetLastError());
  }
  const int g = static_cast<int>(group);
  const int rows = g < kRowsThreads ? kRowsThreads / g : 1;
  const int64_t blocks = (M + rows - 1) / rows;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(fake_quant_cached<T, VEC>),
                     dim3(static_cast<unsigned>(blocks)), dim3(g, rows), 0, stream, x, y, M, N);
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

extern "C" int aka_fake_quant_int8(const void* x, void* y, int64_t M, int64_t N, int dtype,
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
