// torch2cuda/cross_entropy: loss[m] = logsumexp(logits[m, :]) - logits[m, targets[m]] in
// float32, or 0 where targets[m] is the ignore index.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_cross_entropy(const void* logits, const void* targets, void* loss,
//                                    int64_t M, int64_t V, int64_t ignore_index, int dtype,
//                                    void* stream);
// logits is a contiguous M x V row-major device array of one dtype (0 float32, 1 float16,
// 2 bfloat16), targets M int64 values (each in [0, V) or ignore_index), loss a float32 vector
// of M. Launch on `stream` (a cudaStream_t) and return cudaGetLastError() (0 when the launch
// went fine). This file must not include torch headers.
//
// This is a starting point that is correct and deliberately simple: one thread per row, which
// walks its row twice (maximum, then the sum of exponentials). The task is measured against
// PyTorch eager (baseline.py).
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
__global__ void cross_entropy_rows(const T* __restrict__ logits,
                                   const int64_t* __restrict__ targets,
                                   float* __restrict__ loss, int64_t M, int64_t V,
                                   int64_t ignore_index) {
  const int64_t row = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= M) return;
  const int64_t t = targets[row];
  if (t == ignore_index) {
    loss[row] = 0.f;
    return;
  }
  const T* in = logits + row * V;
  float mx = -INFINITY;
  for (int64_t j = 0; j < V; ++j) mx = fmaxf(mx, to_float(in[j]));
  // A serial float32 sum of a whole vocabulary loses digits; the sum is double.
  double sum = 0.0;
  for (int64_t j = 0; j < V; ++j) sum += expf(to_float(in[j]) - mx);
  loss[row] = static_cast<float>(log(sum)) + mx - to_float(in[t]);
}

template <typename T>
int launch(const void* logits, const void* targets, void* loss, int64_t M, int64_t V,
           int64_t ignore_index, cudaStream_t stream) {
  const int64_t blocks = (M + kThreads - 1) / kThreads;
  cross_entropy_rows<T><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      static_cast<const T*>(logits), static_cast<const int64_t*>(targets),
      static_cast<float*>(loss), M, V, ignore_index);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace

extern "C" int aka_cross_entropy(const void* logits, const void* targets, void* loss, int64_t M,
                                 int64_t V, int64_t ignore_index, int dtype, void* stream) {
  if (M <= 0 || V <= 0) return 0;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(logits, targets, loss, M, V, ignore_index, s);
    case 1: return launch<__half>(logits, targets, loss, M, V, ignore_index, s);
    case 2: return launch<__nv_bfloat16>(logits, targets, loss, M, V, ignore_index, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
