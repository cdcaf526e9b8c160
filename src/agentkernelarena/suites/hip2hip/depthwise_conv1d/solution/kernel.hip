// hip2hip/depthwise_conv1d, solution: VEC consecutive outputs per thread from 16-byte packs, a
// zero-padded filter in registers, no division per element and no shared memory.
//
// Launcher contract as in the baseline (binding.cpp declares it):
//   extern "C" int aka_causal_conv1d(const void* x, const void* weight, const void* bias,
//                                    void* out, int64_t Bt, int64_t C, int64_t L, int64_t W,
//                                    int dtype, void* stream);
//
// A row is one (batch, channel) pair: L contiguous positions and one filter. blockIdx.x picks
// the row (the channel is a 32-bit remainder per thread), blockIdx.y a chunk of kThreads * VEC
// positions. A thread owns VEC = 16 / sizeof(T) consecutive positions: it loads its pack and
// the kPrev packs before it (the causal window reaches at most kMaxW - 1 = 7 positions back;
// those packs belong to the neighbouring threads, so they come from the cache, not from
// memory), zeros before position 0. The filter is right-aligned in kMaxW registers (leading
// zeros for W < kMaxW), so every window index is a compile-time constant and the window stays
// in registers for any W. Packs are 16-byte loads and stores when L is a multiple of VEC and
// the pointers are aligned; otherwise the same VEC-element groups are loaded and stored
// element by element. Every input comes from memory once and every output is written once.
// Nothing depends on the wavefront size.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;
constexpr int kMaxW = 8;

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

// Elements start .. start + VEC - 1 of a row into v (zeros outside [0, L)). ALIGNED: L is a
// multiple of VEC and the row is 16-byte aligned, so a group is all inside or all outside.
template <typename T, int VEC, bool ALIGNED>
__device__ __forceinline__ void load_group(const T* __restrict__ row, int64_t start, int64_t L,
                                           float* v) {
  if (ALIGNED) {
    if (start >= 0 && start < L) {
      const Pack<T, VEC> p = reinterpret_cast<const Pack<T, VEC>*>(row)[start / VEC];
#pragma unroll
      for (int e = 0; e < VEC; ++e) v[e] = to_float(p.v[e]);
    } else {
#pragma unroll
      for (int e = 0; e < VEC; ++e) v[e] = 0.f;
    }
  } else {
#pragma unroll
    for (int e = 0; e < VEC; ++e) {
      const int64_t pos = start + e;
      v[e] = (pos >= 0 && pos < L) ? to_float(row[pos]) : 0.f;
    }
  }
}

template <typename T, int VEC, bool ALIGNED>
__global__ void __launch_bounds__(kThreads)
    conv_groups(const T* __restrict__ x, const T* __restrict__ weight,
                const T* __restrict__ bias, T* __restrict__ out, int64_t C, int64_t L,
                int64_t W) {
  constexpr int kPrev = (kMaxW - 1 + VEC - 1) / VEC;  // packs the window reaches back
  constexpr int kBase = kPrev * VEC;                   // window index of position l0
  const int64_t l0 =
      (static_cast<int64_t>(blockIdx.y) * kThreads + threadIdx.x) * static_cast<int64_t>(VEC);
  if (l0 >= L) return;
  const int64_t row = blockIdx.x;
  const int64_t c = static_cast<unsigned>(blockIdx.x) % static_cast<unsigned>(C);
  const T* xr = x + row * L;

  // w[j] multiplies position l - (kMaxW - 1) + j: the filter right-aligned, zeros before it.
  float w[kMaxW];
#pragma unroll
  for (int j = 0; j < kMaxW; ++j) {
    const int64_t k = j - kMaxW + W;
    w[j] = k >= 0 ? to_float(weight[c * W + k]) : 0.f;
  }
  const float b = to_float(bias[c]);

  float win[kBase + VEC];
#pragma unroll
  for (int q = 0; q <= kPrev; ++q) {
    load_group<T, VEC, ALIGNED>(xr, l0 - kBase + q * VEC, L, win + q * VEC);
  }

  float y[VEC];
#pragma unroll
  for (int e = 0; e < VEC; ++e) {
    float acc = b;
#pragma unroll
    for (int j = 0; j < kMaxW; ++j) acc += w[j] * win[kBase + e - (kMaxW - 1) + j];
    y[e] = acc / (1.f + __expf(-acc));
  }

  T* orow = out + row * L;
  if (ALIGNED) {
    Pack<T, VEC> o;
#pragma unroll
    for (int e = 0; e < VEC; ++e) o.v[e] = from_float<T>(y[e]);
    reinterpret_cast<Pack<T, VEC>*>(orow)[l0 / VEC] = o;
  } else {
#pragma unroll
    for (int e = 0; e < VEC; ++e) {
      if (l0 + e < L) orow[l0 + e] = from_float<T>(y[e]);
    }
  }
}

template <typename T, int VEC, bool ALIGNED>
int launch_groups(const T* x, const T* w, const T* b, T* out, int64_t Bt, int64_t C, int64_t L,
                  int64_t W, hipStream_t stream) {
  constexpr int64_t kChunk = static_cast<int64_t>(kThreads) * VEC;
  const int64_t rows = Bt * C;
  const int64_t chunks = (L + kChunk - 1) / kChunk;
  if (rows > 2147483647LL || chunks > 65535) return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(conv_groups<T, VEC, ALIGNED>),
                     dim3(static_cast<unsigned>(rows), static_cast<unsigned>(chunks)),
                     dim3(kThreads), 0, stream, x, w, b, out, C, L, W);
  return static_cast<int>(hipGetLastError());
}

template <typename T>
int launch(const void* xv, const void* wv, const void* bv, void* ov, int64_t Bt, int64_t C,
           int64_t L, int64_t W, hipStream_t stream) {
  const T* x = static_cast<const T*>(xv);
  const T* w = static_cast<const T*>(wv);
  const T* b = static_cast<const T*>(bv);
  T* out = static_cast<T*>(ov);
  constexpr int kVec = 16 / static_cast<int>(sizeof(T));
  const bool aligned = L % kVec == 0 && reinterpret_cast<uintptr_t>(x) % 16 == 0 &&
                       reinterpret_cast<uintptr_t>(out) % 16 == 0;
  return aligned ? launch_groups<T, kVec, true>(x, w, b, out, Bt, C, L, W, stream)
                 : launch_groups<T, kVec, false>(x, w, b, out, Bt, C, L, W, stream);
}

}  // namespace

extern "C" int aka_causal_conv1d(const void* x, const void* weight, const void* bias, void* out,
                                 int64_t Bt, int64_t C, int64_t L, int64_t W, int dtype,
                                 void* stream) {
  if (Bt <= 0 || C <= 0 || L <= 0) return 0;
  if (W < 1 || W > kMaxW) return static_cast<int>(hipErrorInvalidValue);
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, weight, bias, out, Bt, C, L, W, s);
    case 1: return launch<__half>(x, weight, bias, out, Bt, C, L, W, s);
    case 2: return launch<bf16_t>(x, weight, bias, out, Bt, C, L, W, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
