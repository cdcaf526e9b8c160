// hip2hip/cumsum: y[m, n] = x[m, 0] + x[m, 1] + ... + x[m, n] (inclusive prefix sums along
// the rows), accumulated in float32 and stored in x's dtype.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_cumsum_rows(const void* x, void* y, int64_t M, int64_t N, int dtype,
//                                  void* stream);
// x and y are contiguous M x N row-major device arrays of one dtype (0 float32, 1 float16,
// 2 bfloat16); launch on `stream` (a hipStream_t) and return hipGetLastError(). This file must
// not include torch headers. It runs on AMD GPUs (64-lane wavefronts) and, translated to CUDA
// by the arena, on NVIDIA GPUs (32-lane warps): take the wavefront size from warpSize /
// hipDeviceAttributeWarpSize, never a constant.
//
// Baseline: one block of 256 threads per row, walking it in chunks of 256 elements, one per
// thread. Each chunk is scanned in shared memory by the Hillis-Steele method (8 steps, two
// barriers each) and offset by the running total of the earlier chunks.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;

// bfloat16 as raw bits: portable across ROCm versions and the translation to CUDA.
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

template <typename T>
__global__ void cumsum_rows(const T* __restrict__ x, T* __restrict__ y, int64_t N) {
  __shared__ float buf[kThreads];
  const int tid = threadIdx.x;
  const int64_t offset = static_cast<int64_t>(blockIdx.x) * N;
  float carry = 0.f;  // sum of the earlier chunks
  for (int64_t base = 0; base < N; base += kThreads) {
    const int64_t j = base + tid;
    buf[tid] = j < N ? to_float(x[offset + j]) : 0.f;
    __syncthreads();
    for (int d = 1; d < kThreads; d *= 2) {
      const float add = tid >= d ? buf[tid - d] : 0.f;
      __syncthreads();
      buf[tid] += add;
      __syncthreads();
    }
    if (j < N) y[offset + j] = from_float<T>(carry + buf[tid]);
    carry += buf[kThreads - 1];
    __syncthreads();  // buf is overwritten by the next chunk
  }
}

template <typename T>
int launch(const void* x, void* y, int64_t M, int64_t N, hipStream_t stream) {
  hipLaunchKernelGGL(cumsum_rows<T>, dim3(static_cast<unsigned>(M)), dim3(kThreads), 0, stream,
                     static_cast<const T*>(x), static_cast<T*>(y), N);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_cumsum_rows(const void* x, void* y, int64_t M, int64_t N, int dtype,
                               void* stream) {
  if (M <= 0 || N <= 0) return 0;
  if (M > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, y, M, N, s);
    case 1: return launch<__half>(x, y, M, N, s);
    case 2: return launch<bf16_t>(x, y, M, N, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
