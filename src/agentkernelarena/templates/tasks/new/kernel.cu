// ${task_id}: out[i] = x[i] * alpha + y[i] for float32 vectors (the starting point).
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_${name}_forward(const void* x, const void* y, void* out, float alpha,
//                                      int64_t n, void* stream);
// x, y and out are contiguous device arrays of n float32 elements; launch on `stream` (a
// cudaStream_t) and return cudaGetLastError(). This file must not include torch headers.
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;

__global__ void scale_add(const float* __restrict__ x, const float* __restrict__ y,
                          float* __restrict__ out, float alpha, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] * alpha + y[i];
}

}  // namespace

extern "C" int aka_${name}_forward(const void* x, const void* y, void* out, float alpha, int64_t n,
                                   void* stream) {
  if (n <= 0) return 0;
  const int64_t blocks = (n + kThreads - 1) / kThreads;
  scale_add<<<static_cast<unsigned>(blocks), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(
      static_cast<const float*>(x), static_cast<const float*>(y), static_cast<float*>(out), alpha,
      n);
  return static_cast<int>(cudaGetLastError());
}
