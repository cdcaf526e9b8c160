// torch2hip/mse_loss_rows: the mean squared error of each row,
// out[m] = (1 / N) * sum_n (pred[m, n] - target[m, n])^2, accumulated in float32.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_mse_loss_rows(const void* pred, const void* target, void* out,
//                                    int64_t M, int64_t N, int dtype, void* stream);
// pred and target are contiguous M x N row-major device arrays, out a vector of length M, all
// of one dtype (0 float32, 1 float16, 2 bfloat16); launch on `stream` (a hipStream_t) and
// return hipGetLastError(). This file must not include torch headers. It runs on AMD GPUs
// (64-lane wavefronts) and, translated to CUDA by the arena, on NVIDIA GPUs (32-lane warps).
//
// This is a starting point that is correct and deliberately simple: one thread per row, which
// walks its row alone. The task is measured against PyTorch eager (baseline.py).
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

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
__device__ __forceinline__ __half from_float<__half>(float v) { return __float2half_rn(v); }
template <>
__device__ __forceinline__ bf16_t from_float<bf16_t>(float v) {
  unsigned u = __float_as_uint(v);
  if ((u & 0x7fffffffu) > 0x7f800000u) return bf16_t{static_cast<unsigned short>((u >> 16) | 0x40)};
  u += 0x7fffu + ((u >> 16) & 1u);  // round to nearest even
  return bf16_t{static_cast<unsigned short>(u >> 16)};
}

constexpr int kThreads = 256;

template <typename T>
__global__ void mse_rows_simple(const T* __restrict__ pred, const T* __restrict__ target,
                                T* __restrict__ out, int64_t M, int64_t N) {
  const int64_t m = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (m >= M) return;
  float acc = 0.f;
  for (int64_t n = 0; n < N; ++n) {
    const float d = to_float(pred[m * N + n]) - to_float(target[m * N + n]);
    acc += d * d;
  }
  out[m] = from_float<T>(acc / static_cast<float>(N));
}

template <typename T>
int launch(const void* pred, const void* target, void* out, int64_t M, int64_t N,
           hipStream_t stream) {
  const int64_t blocks = (M + kThreads - 1) / kThreads;
  hipLaunchKernelGGL(mse_rows_simple<T>, dim3(static_cast<unsigned>(blocks)), dim3(kThreads), 0,
                     stream, static_cast<const T*>(pred), static_cast<const T*>(target),
                     static_cast<T*>(out), M, N);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_mse_loss_rows(const void* pred, const void* target, void* out, int64_t M,
                                 int64_t N, int dtype, void* stream) {
  if (M <= 0 || N <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(pred, target, out, M, N, s);
    case 1: return launch<__half>(pred, target, out, M, N, s);
    case 2: return launch<bf16_t>(pred, target, out, M, N, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
