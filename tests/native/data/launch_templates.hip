// Templated kernels launched through hipLaunchKernelGGL, with and without HIP_KERNEL_NAME,
// with template arguments, brace initializers and nested calls among the arguments.
#include <hip/hip_runtime.h>

template <typename T>
struct Params {
  const T* x;
  T* y;
  int n;
};

template <typename T, int VEC>
__global__ void __launch_bounds__(256) axpy(T alpha, const T* __restrict__ x, T* __restrict__ y,
                                            int n) {
  const int base = (hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x) * VEC;
#pragma unroll
  for (int k = 0; k < VEC; ++k) {
    if (base + k < n) y[base + k] += alpha * x[base + k];
  }
}

template <typename T, int BLOCK, bool SCALE>
__global__ void scale(Params<T> p, T alpha) {
  const int i = hipBlockIdx_x * BLOCK + hipThreadIdx_x;
  if (i < p.n) p.y[i] = SCALE ? alpha * p.x[i] : p.x[i];
}

inline int blocks_for(int n, int per_block) { return (n + per_block - 1) / per_block; }

template <typename T>
hipError_t launch_all(T alpha, const T* x, T* y, int n, hipStream_t stream) {
  dim3 grid(blocks_for(n, 256 * 4)), block(256);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(axpy<T, 4>), grid, block, 0, stream, alpha, x, y, n);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(scale<T, 256, true>),
                     dim3(blocks_for(n, 256)), dim3(256), 0, stream,
                     Params<T>{x, y, n}, static_cast<T>(alpha * T(2)));
  hipLaunchKernelGGL((axpy<T, 1>), dim3(blocks_for(n, 256)), block, 0, 0,
                     alpha, x, y, n < 16 ? n : 16);
  return hipGetLastError();
}

template hipError_t launch_all<float>(float, const float*, float*, int, hipStream_t);
template hipError_t launch_all<double>(double, const double*, double*, int, hipStream_t);
