// hip2hip/farthest_point_sampling, solution: the cloud kept in registers, one barrier per
// iteration, wavefront shuffles for the arg-max.
//
// Launcher contract as in the baseline (binding.cpp declares it):
//   extern "C" int aka_farthest_point_sampling(const void* points, void* temp, void* idx,
//                                              int64_t B, int64_t N, int64_t npoint,
//                                              void* stream);
//
// One block per cloud. Clouds of up to kMaxThreads * 16 points: thread t owns points t,
// t + threads, ... (PPT of them) and keeps their coordinates and running distances in
// registers, so an iteration touches memory only for the last pick's coordinates (a broadcast
// load). The (distance, index) arg-max (larger distance, then smaller index: a total order, so
// any reduction order gives the same pick) is reduced within each wavefront with __shfl_xor,
// the per-wavefront results go to shared memory (double-buffered by iteration parity, so one
// __syncthreads per iteration suffices), and every wavefront reduces those again with shuffles.
// Larger clouds keep the distances in temp and read the coordinates from memory, with the same
// reduction.
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

constexpr int kMaxThreads = 512;
constexpr int kMaxPPT = 16;

__device__ __forceinline__ bool better(float d, int i, float bd, int bi) {
  return d > bd || (d == bd && i < bi);
}

__device__ __forceinline__ void wave_argmax(float& bd, int& bi) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) {
    const float od = __shfl_xor(bd, offset);
    const int oi = __shfl_xor(bi, offset);
    if (better(od, oi, bd, bi)) {
      bd = od;
      bi = oi;
    }
  }
}

// The block's arg-max: every thread returns it. part_d/part_i: this iteration's buffer.
__device__ __forceinline__ int block_argmax(float bd, int bi, float* part_d, int* part_i) {
  wave_argmax(bd, bi);
  const int lane = threadIdx.x % warpSize;
  const int wave = threadIdx.x / warpSize;
  const int waves = (blockDim.x + warpSize - 1) / warpSize;
  if (lane == 0) {
    part_d[wave] = bd;
    part_i[wave] = bi;
  }
  __syncthreads();
  bd = lane < waves ? part_d[lane] : -2.f;
  bi = lane < waves ? part_i[lane] : 0x7fffffff;
  wave_argmax(bd, bi);
  return bi;
}

template <int PPT>
__global__ void __launch_bounds__(kMaxThreads)
    fps_registers(const float* __restrict__ points, int64_t* __restrict__ idx, int N,
                  int npoint) {
  __shared__ float part_d[2][kMaxThreads];
  __shared__ int part_i[2][kMaxThreads];
  const int b = blockIdx.x;
  const float* pts = points + static_cast<int64_t>(b) * N * 3;
  int64_t* out = idx + static_cast<int64_t>(b) * npoint;
  const int threads = blockDim.x;

  float px[PPT], py[PPT], pz[PPT], dist[PPT];
#pragma unroll
  for (int k = 0; k < PPT; ++k) {
    const int i = threadIdx.x + k * threads;
    if (i < N) {
      px[k] = pts[i * 3 + 0];
      py[k] = pts[i * 3 + 1];
      pz[k] = pts[i * 3 + 2];
      dist[k] = INFINITY;
    } else {
      px[k] = py[k] = pz[k] = 0.f;
      dist[k] = -1.f;  // never picked: real distances are >= 0
    }
  }
  if (threadIdx.x == 0) out[0] = 0;
  int last = 0;
  for (int j = 1; j < npoint; ++j) {
    const float cx = pts[last * 3 + 0], cy = pts[last * 3 + 1], cz = pts[last * 3 + 2];
    float bd = -2.f;
    int bi = 0x7fffffff;
#pragma unroll
    for (int k = 0; k < PPT; ++k) {
      const float dx = px[k] - cx;
      const float dy = py[k] - cy;
      const float dz = pz[k] - cz;
      const float d = fminf(dist[k], dx * dx + dy * dy + dz * dz);
      dist[k] = d;
      const int i = threadIdx.x + k * threads;
      if (better(d, i, bd, bi)) {
        bd = d;
        bi = i;
      }
    }
    last = block_argmax(bd, bi, part_d[j & 1], part_i[j & 1]);
    if (threadIdx.x == 0) out[j] = last;
  }
}

__global__ void __launch_bounds__(kMaxThreads)
    fps_streamed(const float* __restrict__ points, float* __restrict__ temp,
                 int64_t* __restrict__ idx, int N, int npoint) {
  __shared__ float part_d[2][kMaxThreads];
  __shared__ int part_i[2][kMaxThreads];
  const int b = blockIdx.x;
  const float* pts = points + static_cast<int64_t>(b) * N * 3;
  float* dist = temp + static_cast<int64_t>(b) * N;
  int64_t* out = idx + static_cast<int64_t>(b) * npoint;
  // Each thread touches only its own entries of dist: no barrier needed around them.
  for (int i = threadIdx.x; i < N; i += blockDim.x) dist[i] = INFINITY;
  if (threadIdx.x == 0) out[0] = 0;
  int last = 0;
  for (int j = 1; j < npoint; ++j) {
    const float cx = pts[last * 3 + 0], cy = pts[last * 3 + 1], cz = pts[last * 3 + 2];
    float bd = -2.f;
    int bi = 0x7fffffff;
    for (int i = threadIdx.x; i < N; i += blockDim.x) {
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
    last = block_argmax(bd, bi, part_d[j & 1], part_i[j & 1]);
    if (threadIdx.x == 0) out[j] = last;
  }
}

template <int PPT>
int launch_registers(const float* points, int64_t* idx, int64_t B, int N, int npoint,
                     int threads, hipStream_t stream) {
  hipLaunchKernelGGL(HIP_KERNEL_NAME(fps_registers<PPT>), dim3(static_cast<unsigned>(B)),
                     dim3(threads), 0, stream, points, idx, N, npoint);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_farthest_point_sampling(const void* points, void* temp, void* idx, int64_t B,
                                           int64_t N, int64_t npoint, void* stream) {
  if (B <= 0 || npoint <= 0) return 0;
  if (N < npoint || N > 2147483647LL / 3 || B > 2147483647LL)
    return static_cast<int>(hipErrorInvalidValue);
  hipStream_t s = static_cast<hipStream_t>(stream);
  int device = 0, warp = 0;
  hipError_t err = hipGetDevice(&device);
  if (err != hipSuccess) return static_cast<int>(err);
  err = hipDeviceGetAttribute(&warp, hipDeviceAttributeWarpSize, device);
  if (err != hipSuccess) return static_cast<int>(err);
  const float* p = static_cast<const float*>(points);
  int64_t* out = static_cast<int64_t*>(idx);
  const int n = static_cast<int>(N), m = static_cast<int>(npoint);
  if (N > static_cast<int64_t>(kMaxThreads) * kMaxPPT) {
    hipLaunchKernelGGL(fps_streamed, dim3(static_cast<unsigned>(B)), dim3(kMaxThreads), 0, s, p,
                       static_cast<float*>(temp), out, n, m);
    return static_cast<int>(hipGetLastError());
  }
  // Just enough threads (whole wavefronts) for the cloud at PPT points each.
  int threads = warp;
  while (threads < kMaxThreads && static_cast<int64_t>(threads) < N) threads *= 2;
  const int ppt = static_cast<int>((N + threads - 1) / threads);
  if (ppt <= 1) return launch_registers<1>(p, out, B, n, m, threads, s);
  if (ppt <= 2) return launch_registers<2>(p, out, B, n, m, threads, s);
  if (ppt <= 4) return launch_registers<4>(p, out, B, n, m, threads, s);
  if (ppt <= 8) return launch_registers<8>(p, out, B, n, m, threads, s);
  return launch_registers<kMaxPPT>(p, out, B, n, m, threads, s);
}
