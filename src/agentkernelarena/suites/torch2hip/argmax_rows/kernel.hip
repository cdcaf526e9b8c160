// torch2hip/argmax_rows: the column of each row's maximum, out[m] = argmax_n x[m, n] (the
// smallest such column if the maximum is repeated), as int64.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_argmax_rows(const void* x, void* out, int64_t M, int64_t N, int dtype,
//                                  void* stream);
// x is a contiguous M x N row-major device array (0 float32, 1 float16, 2 bfloat16), out an
// int64 array of length M; launch on `stream` (a hipStream_t) and return hipGetLastError().
// This file must not include torch headers. It runs on AMD GPUs (64-lane wavefronts) and,
// translated to CUDA by the arena, on NVIDIA GPUs (32-lane warps).
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

constexpr int kThreads = 128;

template <typename T>
__global__ void argmax_simple(const T* __restrict__ x, int64_t* __restrict__ out, int64_t M,
                              int64_t N) {
  const int64_t m = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (m >= M) return;
  float best = to_float(x[m * N]);
  int64_t arg = 0;
  for (int64_t n = 1; n < N; ++n) {
    const float v = to_float(x[m * N + n]);
    if (v > best) {  // strictly greater: the first column wins ties
      best = v;
      arg = n;
    }
  }
  out[m] = arg;
}

template <typename T>
int launch(const void* x, void* out, int64_t M, int64_t N, hipStream_t stream) {
  const int64_t blocks = (M + kThreads - 1) / kThreads;
  hipLaunchKernelGGL(argmax_simple<T>, dim3(static_cast<unsigned>(blocks)), dim3(kThreads), 0,
                     stream, static_cast<const T*>(x), static_cast<int64_t*>(out), M, N);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_argmax_rows(const void* x, void* out, int64_t M, int64_t N, int dtype,
                               void* stream) {
  if (M <= 0 || N <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, out, M, N, s);
    case 1: return launch<__half>(x, out, M, N, s);
    case 2: return launch<bf16_t>(x, out, M, N, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
