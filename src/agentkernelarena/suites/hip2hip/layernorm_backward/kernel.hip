// hip2hip/layernorm_backward: the backward pass of a row LayerNorm
// y = (x - mean) * rstd * w + b, given the saved per-row mean and rstd. With
// xhat = (x - mean) * rstd and g = dy * w (float32):
//   dx[m, n]  = rstd[m] * (g - mean_n(g) - xhat * mean_n(g * xhat))   (x's dtype)
//   dgamma[n] = sum_m dy[m, n] * xhat[m, n]                            (float32)
//   dbeta[n]  = sum_m dy[m, n]                                         (float32)
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_layernorm_backward(const void* dy, const void* x, const void* weight,
//                                         const void* mean, const void* rstd, void* dx,
//                                         void* dgamma, void* dbeta, int64_t M, int64_t N,
//                                         int dtype, void* stream);
// dy, x: contiguous M x N (0 float32, 1 float16, 2 bfloat16); weight: N of the same dtype;
// mean, rstd: M float32; dx: M x N in x's dtype; dgamma, dbeta: N float32, which arrive filled
// with zeros. Launch on `stream` (a hipStream_t) and return hipGetLastError(). This file must
// not include torch headers. It runs on AMD GPUs (64-lane wavefronts) and, translated to CUDA
// by the arena, on NVIDIA GPUs (32-lane warps).
//
// Baseline: two kernels. dx: one block of 256 threads per row, the two row sums by a
// shared-memory tree reduction, then the row is read again to write dx. dgamma and dbeta: one
// thread per column walks all M rows.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;  // a power of two (tree reduction)

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
__global__ void __launch_bounds__(kThreads)
    layernorm_dx(const T* __restrict__ dy, const T* __restrict__ x, const T* __restrict__ w,
                 const float* __restrict__ mean, const float* __restrict__ rstd,
                 T* __restrict__ dx, int64_t N) {
  __shared__ float s_g[kThreads];
  __shared__ float s_gx[kThreads];
  const int64_t row = blockIdx.x;
  const T* dyr = dy + row * N;
  const T* xr = x + row * N;
  const float mu = mean[row], rs = rstd[row];
  float sg = 0.f, sgx = 0.f;
  for (int64_t n = threadIdx.x; n < N; n += kThreads) {
    const float g = to_float(dyr[n]) * to_float(w[n]);
    sg += g;
    sgx += g * (to_float(xr[n]) - mu) * rs;
  }
  s_g[threadIdx.x] = sg;
  s_gx[threadIdx.x] = sgx;
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) {
      s_g[threadIdx.x] += s_g[threadIdx.x + half];
      s_gx[threadIdx.x] += s_gx[threadIdx.x + half];
    }
    __syncthreads();
  }
  const float mg = s_g[0] / static_cast<float>(N);
  const float mgx = s_gx[0] / static_cast<float>(N);
  T* dxr = dx + row * N;
  for (int64_t n = threadIdx.x; n < N; n += kThreads) {
    const float g = to_float(dyr[n]) * to_float(w[n]);
    const float xhat = (to_float(xr[n]) - mu) * rs;
    dxr[n] = from_float<T>(rs * (g - mg - xhat * mgx));
  }
}

template <typename T>
__global__ void __launch_bounds__(kThreads)
    layernorm_dweights(const T* __restrict__ dy, const T* __restrict__ x,
                       const float* __restrict__ mean, const float* __restrict__ rstd,
                       float* __restrict__ dgamma, float* __restrict__ dbeta, int64_t M,
                       int64_t N) {
  const int64_t n = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (n >= N) return;
  float dg = 0.f, db = 0.f;
  for (int64_t m = 0; m < M; ++m) {
    const float d = to_float(dy[m * N + n]);
    dg += d * (to_float(x[m * N + n]) - mean[m]) * rstd[m];
    db += d;
  }
  dgamma[n] = dg;
  dbeta[n] = db;
}

template <typename T>
int launch(const void* dy, const void* x, const void* w, const void* mean, const void* rstd,
           void* dx, void* dgamma, void* dbeta, int64_t M, int64_t N, hipStream_t stream) {
  if (M > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(layernorm_dx<T>, dim3(static_cast<unsigned>(M)), dim3(kThreads), 0, stream,
                     static_cast<const T*>(dy), static_cast<const T*>(x),
                     static_cast<const T*>(w), static_cast<const float*>(mean),
                     static_cast<const float*>(rstd), static_cast<T*>(dx), N);
  const hipError_t err = hipGetLastError();
  if (err != hipSuccess) return static_cast<int>(err);
  const int64_t blocks = (N + kThreads - 1) / kThreads;
  hipLaunchKernelGGL(layernorm_dweights<T>, dim3(static_cast<unsigned>(blocks)), dim3(kThreads),
                     0, stream, static_cast<const T*>(dy), static_cast<const T*>(x),
                     static_cast<const float*>(mean), static_cast<const float*>(rstd),
                     static_cast<float*>(dgamma), static_cast<float*>(dbeta), M, N);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_layernorm_backward(const void* dy, const void* x, const void* weight,
                                      const void* mean, const void* rstd, void* dx,
                                      void* dgamma, void* dbeta, int64_t M, int64_t N,
                                      int dtype, void* stream) {
  if (M <= 0 || N <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(dy, x, weight, mean, rstd, dx, dgamma, dbeta, M, N, s);
    case 1: return launch<__half>(dy, x, weight, mean, rstd, dx, dgamma, dbeta, M, N, s);
    case 2: return launch<bf16_t>(dy, x, weight, mean, rstd, dx, dgamma, dbeta, M, N, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
