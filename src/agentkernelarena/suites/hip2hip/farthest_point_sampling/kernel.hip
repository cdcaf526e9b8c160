// hip2hip/farthest_point_sampling: PointNet++'s iterative farthest point sampling. For each of
// B clouds of N points: idx[b, 0] = 0; dist[i] = squared distance from point i to the nearest
// point picked so far; idx[b, j] = argmax_i dist[i] (the smallest index among equal
// distances), j = 1 .. npoint - 1.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_farthest_point_sampling(const void* points, void* temp, void* idx,
//                                              int64_t B, int64_t N, int64_t npoint,
//                                              void* stream);
// points is a contiguous B x N x 3 float32 device array, temp a B x N float32 scratch array
// (contents undefined on entry, free to use), idx a contiguous B x npoint int64 array to fill;
// 1 <= npoint <= N. Distances are dx*dx + dy*dy + dz*dz in float32. Launch on `stream` (a
// hipStream_t) and return hipGetLastError(). This file must not include torch headers. It runs
// on AMD GPUs (64-lane wavefronts) and, translated to CUDA by the arena, on NVIDIA GPUs
// (32-lane warps).
//
// Baseline: one block of 256 threads per cloud. Each iteration, every thread walks its strided
// share of the points in global memory, updates their distances in temp and keeps its best
// (distance, index); a shared-memory tree reduction over the block finds the pick.
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;  // a power of two (the tree reduction halves it)

__device__ __forceinline__ bool better(float d, int i, float bd, int bi) {
  return d > bd || (d == bd && i < bi);
}

__global__ void __launch_bounds__(kThreads)
    fps_block(const float* __restrict__ points, float* __restrict__ temp,
              int64_t* __restrict__ idx, int N, int npoint) {
  __shared__ float best_d[kThreads];
  __shared__ int best_i[kThreads];
  const int b = blockIdx.x;
  const float* pts = points + static_cast<int64_t>(b) * N * 3;
  float* dist = temp + static_cast<int64_t>(b) * N;
  int64_t* out = idx + static_cast<int64_t>(b) * npoint;
  const int tid = threadIdx.x;

  for (int i = tid; i < N; i += kThreads) dist[i] = INFINITY;
  int last = 0;
  if (tid == 0) out[0] = 0;
  __syncthreads();

  for (int j = 1; j < npoint; ++j) {
    const float cx = pts[last * 3 + 0], cy = pts[last * 3 + 1], cz = pts[last * 3 + 2];
    float bd = -1.f;
    int bi = 0x7fffffff;
    for (int i = tid; i < N; i += kThreads) {
      const float dx = pts[i * 3 + 0] - cx;
      const float dy = pts[i * 3 + 1] - cy;
      const float dz = pts[i * 3 + 2] - cz;
      const float d = fminf(dist[i], dx * dx + dy * dy + dz * dz);
      dist[i] = d;
      if (better(d, i, bd, bi)) {
        bd = d;
        bi = i;
      }
    }
    best_d[tid] = bd;
    best_i[tid] = bi;
    __syncthreads();
    for (int half = kThreads / 2; half > 0; half /= 2) {
      if (tid < half && better(best_d[tid + half], best_i[tid + half], best_d[tid], best_i[tid])) {
        best_d[tid] = best_d[tid + half];
        best_i[tid] = best_i[tid + half];
      }
      __syncthreads();
    }
    last = best_i[0];
    if (tid == 0) out[j] = last;
    __syncthreads();  // best_* are rewritten by the next iteration
  }
}

}  // namespace

extern "C" int aka_farthest_point_sampling(const void* points, void* temp, void* idx, int64_t B,
                                           int64_t N, int64_t npoint, void* stream) {
  if (B <= 0 || npoint <= 0) return 0;
  if (N < npoint || N > 2147483647LL / 3 || B > 2147483647LL)
    return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(fps_block, dim3(static_cast<unsigned>(B)), dim3(kThreads), 0,
                     static_cast<hipStream_t>(stream), static_cast<const float*>(points),
                     static_cast<float*>(temp), static_cast<int64_t*>(idx), static_cast<int>(N),
                     static_cast<int>(npoint));
  return static_cast<int>(hipGetLastError());
}
