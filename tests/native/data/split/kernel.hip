// Split mode sample in HIP: a wavefront-portable kernel (warpSize, mask-less shuffle).
#include <hip/hip_runtime.h>
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
  hipLaunchKernelGGL(scale_kernel, dim3(static_cast<unsigned>(blocks < 65535 ? blocks : 65535)),
                     dim3(threads), 0, static_cast<hipStream_t>(stream),
                     static_cast<const float*>(x), static_cast<float*>(y), s, n);
  return static_cast<int>(hipGetLastError());
}
