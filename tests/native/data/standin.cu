// A native source that compiles in seconds: a stand-in macro replaces pybind11 (whose headers
// take most of a build), because load() checks the bindings as text before compiling.
#define PYBIND11_MODULE(name, var) void aka_bindings_##name(int var)
#include <cuda_runtime.h>

__global__ void scale(float* x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { (void)m; }
