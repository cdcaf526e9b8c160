// Split mode sample: kernels and extern "C" launchers only, no torch headers (compiles in
// seconds). binding.cpp declares the launcher and does the torch side.
#include <cuda_runtime.h>
#include <cstdint>

__global__ void scale_kernel(const float* __restrict__ x, float* __restrict__ y, float s,
                             int64_t n) {
  const int64_t stride = static_cast<int64_t>(blockDim.x) * gridDim.x;
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    y[i] = x[i] * s;
  }
}

extern "C" int aka_scale(const void* x, void* y, float s, int64_t n, void* stream) {
  if (n == 0) return 0;
  const int threads = 256;
  const int64_t blocks = (n + threads - 1) / threads;
  scale_kernel<<<static_cast<unsigned>(blocks < 65535 ? blocks : 65535), threads, 0,
                 static_cast<cudaStream_t>(stream)>>>(static_cast<const float*>(x),
                                                      static_cast<float*>(y), s, n);
  return static_cast<int>(cudaGetLastError());
}
