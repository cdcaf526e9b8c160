// torch2cuda/cosine_similarity: out[m] = dot(a[m, :], b[m, :]) / (max(||a[m, :]||, eps) *
// max(||b[m, :]||, eps)), accumulated in float32.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_cosine_similarity(const void* a, const void* b, void* out, int64_t M,
//                                        int64_t N, float eps, int dtype, void* stream);
// a and b are contiguous M x N row-major device arrays, out a vector of M, all of one dtype
// (0 float32, 1 float16, 2 bfloat16); N >= 1. Launch on `stream` (a cudaStream_t) and return
// cudaGetLastError() (0 when the launch went fine). This file must not include torch headers.
//
// This is a starting point that is correct and deliberately simple: one thread per row, which
// accumulates the dot product and both squared norms in one loop. The task is measured
// against PyTorch eager (baseline.py).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;

__device__ __forceinline__ float to_float(float v) { return v; }
__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }

template <typename T>
__device__ __forceinline__ T from_float(float v);
template <>
__device__ __forceinline__ float from_float<float>(float v) { return v; }
template <>
__device__ __forceinline__ __half from_float<__half>(float v) { return __float2half_rn(v); }
template <>
__device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) {
  return __float2bfloat16_rn(v);
}

template <typename T>
__global__ void cosine_rows(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ out,
                            int64_t M, int64_t N, float eps) {
  const int64_t row = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= M) return;
  const T* ra = a + row * N;
  const T* rb = b + row * N;
  float dot = 0.f, aa = 0.f, bb = 0.f;
  for (int64_t j = 0; j < N; ++j) {
    const float va = to_float(ra[j]);
    const float vb = to_float(rb[j]);
    dot += va * vb;
    aa += va * va;
    bb += vb * vb;
  }
  out[row] = from_float<T>(dot / (fmaxf(sqrtf(aa), eps) * fmaxf(sqrtf(bb), eps)));
}

template <typename T>
int launch(const void* a, const void* b, void* out, int64_t M, int64_t N, float eps,
           cudaStream_t stream) {
  const int64_t blocks = (M + kThreads - 1) / kThreads;
  cosine_rows<T><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      static_cast<const T*>(a), static_cast<const T*>(b), static_cast<T*>(out), M, N, eps);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace

extern "C" int aka_cosine_similarity(const void* a, const void* b, void* out, int64_t M,
                                     int64_t N, float eps, int dtype, void* stream) {
  if (M <= 0 || N <= 0) return 0;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(a, b, out, M, N, eps, s);
    case 1: return launch<__half>(a, b, out, M, N, eps, s);
    case 2: return launch<__nv_bfloat16>(a, b, out, M, N, eps, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
