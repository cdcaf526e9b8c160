// torch2hip/cross_entropy: the per-token loss of a language model, loss[m] =
// logsumexp(logits[m, :]) - logits[m, targets[m]] computed in float32, or 0 where targets[m]
// is the ignore index (-100); the loss is stored in the logits' dtype.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_cross_entropy(const void* logits, const void* targets, void* loss,
//                                    int64_t M, int64_t V, int64_t ignore_index, int dtype,
//                                    void* stream);
// logits is a contiguous M x V row-major device array (dtype 0 float32, 1 float16,
// 2 bfloat16), targets M int64 values (ignore_index or in [0, V)), loss M values of the
// logits' dtype;
// launch on `stream` (a hipStream_t) and return hipGetLastError(). This file must not include
// torch headers. It runs on AMD GPUs (64-lane wavefronts) and, translated to CUDA by the
// arena, on NVIDIA GPUs (32-lane warps).
//
// This is a starting point that is correct and deliberately simple: one thread per row, which
// walks the row twice (max, then sum of exponentials). The task is measured against PyTorch
// eager (baseline.py).
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
__device__ __forceinline__ __half from_float<__half>(float v) { return __float2half(v); }
template <>
__device__ __forceinline__ bf16_t from_float<bf16_t>(float v) {
  unsigned u = __float_as_uint(v);
  if ((u & 0x7fffffffu) > 0x7f800000u) return bf16_t{static_cast<unsigned short>((u >> 16) | 0x40)};
  u += 0x7fffu + ((u >> 16) & 1u);  // round to nearest even
  return bf16_t{static_cast<unsigned short>(u >> 16)};
}

constexpr int kThreads = 256;

template <typename T>
__global__ void cross_entropy_simple(const T* __restrict__ logits,
                                     const int64_t* __restrict__ targets, T* __restrict__ loss,
                                     int64_t M, int64_t V, int64_t ignore_index) {
  const int64_t m = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (m >= M) return;
  const int64_t t = targets[m];
  if (t == ignore_index || t < 0 || t >= V) {
    loss[m] = from_float<T>(0.f);
    return;
  }
  const T* row = logits + m * V;
  float mx = to_float(row[0]);
  for (int64_t v = 1; v < V; ++v) mx = fmaxf(mx, to_float(row[v]));
  float sum = 0.f;
  for (int64_t v = 0; v < V; ++v) sum += expf(to_float(row[v]) - mx);
  loss[m] = from_float<T>(mx + logf(sum) - to_float(row[t]));
}

template <typename T>
int launch(const void* logits, const void* targets, void* loss, int64_t M, int64_t V,
           int64_t ignore_index, hipStream_t stream) {
  const int64_t blocks = (M + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(cross_entropy_simple<T>, dim3(static_cast<unsigned>(blocks)),
                     dim3(kThreads), 0, stream, static_cast<const T*>(logits),
                     static_cast<const int64_t*>(targets), static_cast<T*>(loss), M, V,
                     ignore_index);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_cross_entropy(const void* logits, const void* targets, void* loss, int64_t M,
                                 int64_t V, int64_t ignore_index, int dtype, void* stream) {
  if (M <= 0 || V <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(logits, targets, loss, M, V, ignore_index, s);
    case 1: return launch<__half>(logits, targets, loss, M, V, ignore_index, s);
    case 2: return launch<bf16_t>(logits, targets, loss, M, V, ignore_index, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
