// hip2hip/logsumexp: out[m] = log(sum_n exp(x[m, n])), accumulated in float32.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_logsumexp_forward(const void* x, void* out, int64_t M, int64_t N,
//                                        int dtype, void* stream);
// x is a contiguous M x N row-major device array (dtype 0 float32, 1 float16, 2 bfloat16),
// out a float32 array of M; launch on `stream` (a hipStream_t) and return hipGetLastError().
// This file must not include torch headers. It runs on AMD GPUs (64-lane wavefronts) and,
// translated to CUDA by the arena, on NVIDIA GPUs (32-lane warps): take the wavefront size
// from warpSize / hipDeviceAttributeWarpSize, never a constant.
//
// Baseline: one block of 256 threads per row; the row is read twice (max, then the sum of
// exponentials) and each block-wide reduction is a shared-memory tree, a barrier per level.
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
__global__ void logsumexp_rows(const T* __restrict__ x, float* __restrict__ out, int64_t N) {
  __shared__ float red[kThreads];
  const int tid = threadIdx.x;
  const T* row = x + static_cast<int64_t>(blockIdx.x) * N;

  float m = -INFINITY;
  for (int64_t j = tid; j < N; j += blockDim.x) m = fmaxf(m, to_float(row[j]));
  red[tid] = m;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] = fmaxf(red[tid], red[tid + s]);
    __syncthreads();
  }
  const float row_max = red[0];
  __syncthreads();

  float sum = 0.f;
  for (int64_t j = tid; j < N; j += blockDim.x) sum += expf(to_float(row[j]) - row_max);
  red[tid] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = row_max + logf(red[0]);
}

template <typename T>
int launch(const void* x, void* out, int64_t M, int64_t N, hipStream_t stream) {
  hipLaunchKernelGGL(logsumexp_rows<T>, dim3(static_cast<unsigned>(M)), dim3(kThreads), 0,
                     stream, static_cast<const T*>(x), static_cast<float*>(out), N);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_logsumexp_forward(const void* x, void* out, int64_t M, int64_t N, int dtype,
                                     void* stream) {
  if (M <= 0 || N <= 0) return 0;
  if (M > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, out, M, N, s);
    case 1: return launch<__half>(x, out, M, N, s);
    case 2: return launch<bf16_t>(x, out, M, N, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
