// hip2hip/segment_sum, solution: fixed chunks of rows instead of whole segments per thread,
// 16-byte loads, partial sums flushed with atomicAdd.
//
// Launcher contract as in the baseline (binding.cpp declares it):
//   extern "C" int aka_segment_sum(const void* x, const void* offsets, void* out, int64_t N,
//                                  int64_t D, int64_t S, int dtype, void* stream);
//
// The baseline's thread walks its whole segment, so one long segment is a serial chain of
// thousands of loads while the rest of the GPU idles. Here the rows are cut into chunks of
// kRows, whatever the segments: a thread owns one chunk and one pack of VEC columns (16 bytes
// of x when D is a multiple of VEC and x is aligned, one column otherwise), finds the segment
// of the chunk's first row by binary search over the offsets, accumulates in float32 registers
// and, at every segment boundary inside the chunk and at its end, adds the partial sums into
// out with atomicAdd (out arrives zeroed; an empty segment receives nothing). Neighbouring
// threads of a block take neighbouring column packs of the same chunk (coalesced rows).
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;
constexpr int kRows = 32;

struct alignas(2) bf16_t {
  unsigned short bits;
};

__device__ __forceinline__ float to_float(float v) { return v; }
__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_float(bf16_t v) {
  return __uint_as_float(static_cast<unsigned>(v.bits) << 16);
}

template <typename T, int VEC>
struct alignas(sizeof(T) * VEC) Pack {
  T v[VEC];
};

template <typename T, int VEC>
__global__ void __launch_bounds__(kThreads)
    segment_sum_chunked(const T* __restrict__ x, const int64_t* __restrict__ offsets,
                        float* __restrict__ out, int64_t N, int64_t D, int64_t S) {
  using P = Pack<T, VEC>;
  const int64_t packs = D / VEC;
  const int64_t p = static_cast<int64_t>(blockIdx.y) * blockDim.x + threadIdx.x;
  const int64_t r0 = (static_cast<int64_t>(blockIdx.x) * blockDim.y + threadIdx.y) * kRows;
  if (p >= packs || r0 >= N) return;
  const int64_t r1 = r0 + kRows < N ? r0 + kRows : N;

  // The last segment s with offsets[s] <= r0: it holds row r0 (offsets[S] = N > r0).
  int64_t lo = 0, hi = S - 1;
  while (lo < hi) {
    const int64_t mid = (lo + hi + 1) / 2;
    if (offsets[mid] <= r0) lo = mid;
    else hi = mid - 1;
  }
  int64_t s = lo;
  int64_t end = offsets[s + 1];

  float acc[VEC];
#pragma unroll
  for (int e = 0; e < VEC; ++e) acc[e] = 0.f;
  bool pending = false;
  for (int64_t r = r0; r < r1; ++r) {
    if (r >= end) {
      if (pending) {
        float* o = out + s * D + p * VEC;
#pragma unroll
        for (int e = 0; e < VEC; ++e) {
          atomicAdd(o + e, acc[e]);
          acc[e] = 0.f;
        }
        pending = false;
      }
      do {  // skip the empty segments between
        ++s;
        end = offsets[s + 1];
      } while (r >= end);
    }
    const P pack = reinterpret_cast<const P*>(x + r * D)[p];
#pragma unroll
    for (int e = 0; e < VEC; ++e) acc[e] += to_float(pack.v[e]);
    pending = true;
  }
  if (pending) {
    float* o = out + s * D + p * VEC;
#pragma unroll
    for (int e = 0; e < VEC; ++e) atomicAdd(o + e, acc[e]);
  }
}

template <typename T, int VEC>
int launch_vec(const T* x, const int64_t* offsets, float* out, int64_t N, int64_t D, int64_t S,
               hipStream_t stream) {
  const int64_t packs = D / VEC;
  int bx = 1;
  while (bx < packs && bx < kThreads) bx *= 2;
  const int by = kThreads / bx;
  const int64_t chunks = (N + kRows - 1) / kRows;
  const int64_t gx = (chunks + by - 1) / by;
  const int64_t gy = (packs + bx - 1) / bx;
  if (gx > 2147483647LL || gy > 65535) return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(segment_sum_chunked<T, VEC>),
                     dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy)), dim3(bx, by), 0,
                     stream, x, offsets, out, N, D, S);
  return static_cast<int>(hipGetLastError());
}

template <typename T>
int launch(const void* xv, const void* offsets, void* out, int64_t N, int64_t D, int64_t S,
           hipStream_t stream) {
  constexpr int kVec = 16 / static_cast<int>(sizeof(T));
  const T* x = static_cast<const T*>(xv);
  const int64_t* off = static_cast<const int64_t*>(offsets);
  float* o = static_cast<float*>(out);
  const bool aligned = D % kVec == 0 && reinterpret_cast<uintptr_t>(x) % 16 == 0;
  return aligned ? launch_vec<T, kVec>(x, off, o, N, D, S, stream)
                 : launch_vec<T, 1>(x, off, o, N, D, S, stream);
}

}  // namespace

extern "C" int aka_segment_sum(const void* x, const void* offsets, void* out, int64_t N,
                               int64_t D, int64_t S, int dtype, void* stream) {
  if (N <= 0 || D <= 0 || S <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, offsets, out, N, D, S, s);
    case 1: return launch<__half>(x, offsets, out, N, D, S, s);
    case 2: return launch<bf16_t>(x, offsets, out, N, D, S, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
