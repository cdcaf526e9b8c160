// Block-wide sum and max with wavefront shuffles: the usual HIP reduction, written portably
// (warpSize, not 64), with the mask-less shuffles HIP allows and CUDA does not.
#include <hip/hip_runtime.h>

__device__ inline float wave_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) {
    v += __shfl_down(v, offset);
  }
  return v;
}

__device__ inline float wave_max(float v) {
  for (int mask = warpSize / 2; mask > 0; mask >>= 1) {
    v = fmaxf(v, __shfl_xor(v, mask));
  }
  return v;
}

__device__ inline float wave_inclusive_scan(float v, int lane) {
  for (int d = 1; d < warpSize; d *= 2) {
    const float up = __shfl_up(v, d);
    if (lane >= d) v += up;
  }
  return v;
}

__global__ void __launch_bounds__(256)
block_reduce(const float* __restrict__ x, float* __restrict__ sum, float* __restrict__ max_out,
             float* __restrict__ scan, int n) {
  __shared__ float partial[32];
  const int lane = hipThreadIdx_x % warpSize;
  const int wave = hipThreadIdx_x / warpSize;
  const int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
  float v = 0.f;
  for (int j = i; j < n; j += hipBlockDim_x * hipGridDim_x) v += x[j];
  if (i < n) scan[i] = wave_inclusive_scan(i < n ? x[i] : 0.f, lane);
  const float m = wave_max(v);
  v = wave_sum(v);
  if (lane == 0) partial[wave] = v;
  __syncthreads();
  if (wave == 0) {
    const int waves = (hipBlockDim_x + warpSize - 1) / warpSize;
    v = lane < waves ? partial[lane] : 0.f;
    v = wave_sum(v);
    if (lane == 0) atomicAdd(sum, v);
  }
  const float leader = __shfl(m, 0);
  if (lane == 0) max_out[hipBlockIdx_x * 32 + wave] = leader;
}

hipError_t launch_block_reduce(const float* x, float* sum, float* max_out, float* scan, int n,
                               hipStream_t stream) {
  const int threads = 256;
  const int blocks = (n + threads - 1) / threads;
  hipLaunchKernelGGL(block_reduce, dim3(blocks), dim3(threads), 0, stream,
                     x, sum, max_out, scan, n);
  return hipGetLastError();
}
