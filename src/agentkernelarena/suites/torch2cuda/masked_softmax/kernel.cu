// torch2cuda/masked_softmax: y[m, :] = softmax of row m over the positions that mask[m, :]
// keeps (mask byte 0), in float32; excluded positions get 0, and a row with no kept position
// is all zeros.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_masked_softmax(const void* x, const void* mask, void* y, int64_t M,
//                                     int64_t N, int dtype, void* stream);
// x and y are contiguous M x N row-major device arrays of one dtype (0 float32, 1 float16,
// 2 bfloat16), mask a contiguous M x N array of bytes (torch.bool: 1 = excluded). Launch on
// `stream` (a cudaStream_t) and return cudaGetLastError() (0 when the launch went fine). This
// file must not include torch headers.
//
// This is a starting point that is correct and deliberately simple: one thread per row, which
// walks its row three times (maximum, sum of exponentials, output). The task is measured
// against PyTorch eager (baseline.py).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace {

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

constexpr int kThreads = 128;

template <typename T>
__global__ void masked_softmax_rows(const T* __restrict__ x, const uint8_t* __restrict__ mask,
                                    T* __restrict__ y, int64_t M, int64_t N) {
  const int64_t row = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= M) return;
  const T* in = x + row * N;
  const uint8_t* keep_not = mask + row * N;
  T* out = y + row * N;
  float mx = -INFINITY;
  for (int64_t j = 0; j < N; ++j) {
    if (!keep_not[j]) mx = fmaxf(mx, to_float(in[j]));
  }
  if (mx == -INFINITY) {  // every position excluded
    for (int64_t j = 0; j < N; ++j) out[j] = from_float<T>(0.f);
    return;
  }
  // One thread adds up a whole row in order: in float32 the rounding error of such a long
  // serial sum breaks the float32 tolerance for long rows, so the sum is double.
  double sum = 0.0;
  for (int64_t j = 0; j < N; ++j) {
    if (!keep_not[j]) sum += expf(to_float(in[j]) - mx);
  }
  const float inv = static_cast<float>(1.0 / sum);
  for (int64_t j = 0; j < N; ++j) {
    out[j] = from_float<T>(keep_not[j] ? 0.f : expf(to_float(in[j]) - mx) * inv);
  }
}

template <typename T>
int launch(const void* x, const void* mask, void* y, int64_t M, int64_t N, cudaStream_t stream) {
  const int64_t blocks = (M + kThreads - 1) / kThreads;
  masked_softmax_rows<T><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      static_cast<const T*>(x), static_cast<const uint8_t*>(mask), static_cast<T*>(y), M, N);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace

extern "C" int aka_masked_softmax(const void* x, const void* mask, void* y, int64_t M,
                                  int64_t N, int dtype, void* stream) {
  if (M <= 0 || N <= 0) return 0;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, mask, y, M, N, s);
    case 1: return launch<__half>(x, mask, y, M, N, s);
    case 2: return launch<__nv_bfloat16>(x, mask, y, M, N, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
