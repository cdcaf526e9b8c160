// A HIP source that compiles in seconds: a stand-in macro replaces pybind11 (whose headers
// take most of a build), because load() checks the bindings as text before compiling.
#define PYBIND11_MODULE(name, var) void aka_bindings_##name(int var)
#include <hip/hip_runtime.h>

__global__ void scale(float* x, float s, int n) {
  int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
  if (i < n) x[i] *= s;
}

void launch(float* x, float s, int n) {
  hipLaunchKernelGGL(scale, dim3((n + 255) / 256), dim3(256), 0, 0, x, s, n);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { (void)m; }
