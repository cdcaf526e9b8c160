// hip2hip/batched_gemv, solution: one wavefront per output row, 16-byte loads, a shuffle
// reduction sized by the device's wavefront.
//
// Launcher contract as in the baseline (binding.cpp declares it):
//   extern "C" int aka_batched_gemv(const void* w, const void* x, void* y, int64_t B, int64_t N,
//                                   int64_t K, int dtype, void* stream);
//
// The lanes of a wavefront stride along one row of w together, so every load is coalesced;
// when K is a multiple of 8 and the arrays are 16-byte aligned each lane loads 8 elements of w
// and of x at once (uint4), otherwise element by element. Each lane keeps a float32 partial sum
// and the wavefront adds them with __shfl_xor over warpSize lanes. A block of 256 threads
// covers 256 / warpSize rows of one batch entry (blockIdx.y), so x[b] stays hot in L1.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;

struct alignas(2) bf16_t {
  unsigned short bits;
};

__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_float(bf16_t v) {
  return __uint_as_float(static_cast<unsigned>(v.bits) << 16);
}

// The two 16-bit halves of a 32-bit word, as floats.
__device__ __forceinline__ float lo(unsigned u, __half) {
  __half h;
  unsigned short s = static_cast<unsigned short>(u & 0xffffu);
  __builtin_memcpy(&h, &s, 2);
  return __half2float(h);
}
__device__ __forceinline__ float hi(unsigned u, __half) {
  __half h;
  unsigned short s = static_cast<unsigned short>(u >> 16);
  __builtin_memcpy(&h, &s, 2);
  return __half2float(h);
}
__device__ __forceinline__ float lo(unsigned u, bf16_t) { return __uint_as_float(u << 16); }
__device__ __forceinline__ float hi(unsigned u, bf16_t) { return __uint_as_float(u & 0xffff0000u); }

template <typename T>
__device__ __forceinline__ T from_float(float v);
template <>
__device__ __forceinline__ __half from_float<__half>(float v) { return __float2half_rn(v); }
template <>
__device__ __forceinline__ bf16_t from_float<bf16_t>(float v) {
  unsigned u = __float_as_uint(v);
  if ((u & 0x7fffffffu) > 0x7f800000u) return bf16_t{static_cast<unsigned short>((u >> 16) | 0x40)};
  u += 0x7fffu + ((u >> 16) & 1u);
  return bf16_t{static_cast<unsigned short>(u >> 16)};
}

__device__ __forceinline__ float dot2(unsigned a, unsigned b, __half t) {
  return lo(a, t) * lo(b, t) + hi(a, t) * hi(b, t);
}
__device__ __forceinline__ float dot2(unsigned a, unsigned b, bf16_t t) {
  return lo(a, t) * lo(b, t) + hi(a, t) * hi(b, t);
}

template <typename T, bool VEC>
__global__ void __launch_bounds__(kThreads)
    gemv_wave_rows(const T* __restrict__ w, const T* __restrict__ x, T* __restrict__ y, int64_t N,
                   int64_t K) {
  const int lane = static_cast<int>(threadIdx.x) % warpSize;
  const int waves = static_cast<int>(blockDim.x) / warpSize;
  const int64_t n = static_cast<int64_t>(blockIdx.x) * waves + threadIdx.x / warpSize;
  const int64_t b = blockIdx.y;
  if (n >= N) return;  // whole wavefronts leave together
  const T* row = w + (b * N + n) * K;
  const T* vec = x + b * K;
  float acc = 0.f;
  if (VEC) {
    const uint4* row4 = reinterpret_cast<const uint4*>(row);
    const uint4* vec4 = reinterpret_cast<const uint4*>(vec);
    const int64_t packs = K / 8;
    const T tag{};
    for (int64_t p = lane; p < packs; p += warpSize) {
      const uint4 a = row4[p];
      const uint4 v = vec4[p];
      acc += dot2(a.x, v.x, tag) + dot2(a.y, v.y, tag) + dot2(a.z, v.z, tag) +
             dot2(a.w, v.w, tag);
    }
  } else {
    for (int64_t k = lane; k < K; k += warpSize) acc += to_float(row[k]) * to_float(vec[k]);
  }
  for (int off = warpSize / 2; off > 0; off >>= 1) acc += __shfl_xor(acc, off);
  if (lane == 0) y[b * N + n] = from_float<T>(acc);
}

template <typename T>
int launch(const void* w, const void* x, void* y, int64_t B, int64_t N, int64_t K,
           hipStream_t stream) {
  int device = 0, warp = 0;
  hipError_t err = hipGetDevice(&device);
  if (err == hipSuccess) err = hipDeviceGetAttribute(&warp, hipDeviceAttributeWarpSize, device);
  if (err != hipSuccess) return static_cast<int>(err);
  if (warp <= 0 || kThreads % warp != 0) return static_cast<int>(hipErrorInvalidValue);
  const int64_t rows_per_block = kThreads / warp;
  const int64_t blocks = (N + rows_per_block - 1) / rows_per_block;
  if (blocks > 2147483647LL || B > 65535) return static_cast<int>(hipErrorInvalidValue);
  const dim3 grid(static_cast<unsigned>(blocks), static_cast<unsigned>(B));
  const T* wp = static_cast<const T*>(w);
  const T* xp = static_cast<const T*>(x);
  T* yp = static_cast<T*>(y);
  const bool vec = K % 8 == 0 && reinterpret_cast<uintptr_t>(wp) % 16 == 0 &&
                   reinterpret_cast<uintptr_t>(xp) % 16 == 0;
  if (vec) {
    hipLaunchKernelGGL(HIP_KERNEL_NAME(gemv_wave_rows<T, true>), grid, dim3(kThreads), 0, stream,
                       wp, xp, yp, N, K);
  } else {
    hipLaunchKernelGGL(HIP_KERNEL_NAME(gemv_wave_rows<T, false>), grid, dim3(kThreads), 0,
                       stream, wp, xp, yp, N, K);
  }
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_batched_gemv(const void* w, const void* x, void* y, int64_t B, int64_t N,
                                int64_t K, int dtype, void* stream) {
  if (B <= 0 || N <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 1: return launch<__half>(w, x, y, B, N, K, s);
    case 2: return launch<bf16_t>(w, x, y, B, N, K, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
