// hip2hip/rmsnorm_quant_int8: RMSNorm fused with per-token dynamic int8 quantization (as AMD's
// aiter fuses them for W8A8 inference). For every row m of x (M x N) and the weight w, in
// float32, each step one correctly rounded operation in this order:
//   ss = sum_n x[m, n]^2;  mean = ss / N;  r = 1 / sqrtf(mean + 1e-6);
//   y[n] = (x[m, n] * r) * w[n];  scale[m] = max_n |y[n]| / 127;
//   q[m, n] = clamp(rint(y[n] / scale[m]), -127, 127)  (round half to even)
// IEEE division and square root (no reciprocal, rsqrt or fast-math approximations). The inputs
// are multiples of 1/4 whose sums of squares are exact in float32 in any order, so the result
// is exactly determined; q and scale must match it bit for bit.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_rmsnorm_quant_int8(const void* x, const void* weight, void* q,
//                                         void* scale, int64_t M, int64_t N, int dtype,
//                                         void* stream);
// x is a contiguous M x N device array and weight N, both float16 (dtype 1) or bfloat16 (2,
// raw bits); q is M x N int8 and scale M float32. Launch on `stream` (a hipStream_t) and return
// hipGetLastError(). This file must not include torch headers. It runs on AMD GPUs (64-lane
// wavefronts) and, translated to CUDA by the arena, on NVIDIA GPUs (32-lane warps): take the
// wavefront size from warpSize / hipDeviceAttributeWarpSize, never a constant.
//
// Baseline: one block of 256 threads per row, element by element; the row is read three times
// (sum of squares, absolute maximum, quantization) and each reduction is a shared-memory tree.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;
constexpr float kEps = 1e-6f;

struct alignas(2) bf16_t {
  unsigned short bits;
};

__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_float(bf16_t v) {
  return __uint_as_float(static_cast<unsigned>(v.bits) << 16);
}

template <typename T>
__global__ void rmsnorm_quant_rows(const T* __restrict__ x, const T* __restrict__ w,
                                   int8_t* __restrict__ q, float* __restrict__ scale,
                                   int64_t N) {
  __shared__ float red[kThreads];
  const int tid = threadIdx.x;
  const int64_t offset = static_cast<int64_t>(blockIdx.x) * N;
  const T* row = x + offset;

  float ss = 0.f;
  for (int64_t j = tid; j < N; j += blockDim.x) {
    const float v = to_float(row[j]);
    ss += v * v;
  }
  red[tid] = ss;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
  const float mean = red[0] / static_cast<float>(N);
  const float r = 1.f / sqrtf(mean + kEps);
  __syncthreads();

  float amax = 0.f;
  for (int64_t j = tid; j < N; j += blockDim.x) {
    amax = fmaxf(amax, fabsf((to_float(row[j]) * r) * to_float(w[j])));
  }
  red[tid] = amax;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] = fmaxf(red[tid], red[tid + s]);
    __syncthreads();
  }
  const float sc = red[0] / 127.f;
  if (tid == 0) scale[blockIdx.x] = sc;

  for (int64_t j = tid; j < N; j += blockDim.x) {
    const float y = (to_float(row[j]) * r) * to_float(w[j]);
    const float v = fminf(fmaxf(rintf(y / sc), -127.f), 127.f);
    q[offset + j] = static_cast<int8_t>(v);
  }
}

template <typename T>
int launch(const void* x, const void* w, void* q, void* scale, int64_t M, int64_t N,
           hipStream_t stream) {
  hipLaunchKernelGGL(rmsnorm_quant_rows<T>, dim3(static_cast<unsigned>(M)), dim3(kThreads), 0,
                     stream, static_cast<const T*>(x), static_cast<const T*>(w),
                     static_cast<int8_t*>(q), static_cast<float*>(scale), N);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_rmsnorm_quant_int8(const void* x, const void* weight, void* q, void* scale,
                                      int64_t M, int64_t N, int dtype, void* stream) {
  if (M <= 0 || N <= 0) return 0;
  if (M > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 1: return launch<__half>(x, weight, q, scale, M, N, s);
    case 2: return launch<bf16_t>(x, weight, q, scale, M, N, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
