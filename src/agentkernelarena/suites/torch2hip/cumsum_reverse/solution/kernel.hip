// torch2hip/cumsum_reverse, solution: one read and one write of the matrix, a group of threads
// per row scanning chunks from the row's end with shuffles, the next chunk's loads in flight.
//
// Launcher contract as in the skeleton (binding.cpp declares it):
//   extern "C" int aka_cumsum_reverse(const void* x, void* y, int64_t M, int64_t N,
//                                     void* stream);
//
// Eager PyTorch flips x into a copy, scans it and flips the result into another copy: six
// M x N transfers. Here a group of `tpr` consecutive threads (a power of two: enough that four
// elements per thread cover short rows, 256 for long ones) owns a row and walks it in chunks
// of 4 * tpr elements, last chunk first. Each thread loads its four consecutive elements (one
// 16-byte load when rows are 16-byte aligned), forms their suffix sums, and the group adds the
// totals of the threads after it: an inclusive suffix scan with __shfl_down inside a
// wavefront, then the totals of the later wavefronts through LDS. A running carry holds the
// sum of the chunks already done. The loads of the chunk before are issued before the scan
// of the current one. Nothing depends on the wavefront size.
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

constexpr int kBlock = 256;
constexpr int kItems = 4;

template <bool VEC>
__device__ __forceinline__ void load_items(float (&v)[kItems], const float* row, int64_t base,
                                           int64_t N, bool live) {
  if (VEC) {
    if (live && base < N) {
      const float4 p = *reinterpret_cast<const float4*>(row + base);
      v[0] = p.x;
      v[1] = p.y;
      v[2] = p.z;
      v[3] = p.w;
      return;
    }
    v[0] = v[1] = v[2] = v[3] = 0.f;
    return;
  }
#pragma unroll
  for (int k = 0; k < kItems; ++k) v[k] = live && base + k < N ? row[base + k] : 0.f;
}

template <bool VEC>
__global__ void __launch_bounds__(kBlock)
    cumsum_reverse_rows(const float* __restrict__ x, float* __restrict__ y, int64_t M,
                        int64_t N, int tpr) {
  __shared__ float wave_total[kBlock];
  const int ws = warpSize;
  const int width = tpr < ws ? tpr : ws;  // the group's part of one wavefront
  const int seg = threadIdx.x % width;
  const int lane = threadIdx.x % tpr;
  const int64_t m = static_cast<int64_t>(blockIdx.x) * (blockDim.x / tpr) + threadIdx.x / tpr;
  const bool live = m < M;
  const float* xr = x + (live ? m : 0) * N;
  float* yr = y + (live ? m : 0) * N;
  const int64_t chunk = static_cast<int64_t>(tpr) * kItems;
  const int64_t chunks = (N + chunk - 1) / chunk;
  float carry = 0.f;
  float cur[kItems];
  load_items<VEC>(cur, xr, (chunks - 1) * chunk + static_cast<int64_t>(lane) * kItems, N, live);
  for (int64_t c = chunks - 1; c >= 0; --c) {
    const int64_t base = c * chunk + static_cast<int64_t>(lane) * kItems;
    float nxt[kItems];
    if (c > 0) load_items<VEC>(nxt, xr, base - chunk, N, live);
    float s[kItems];
    s[kItems - 1] = cur[kItems - 1];
#pragma unroll
    for (int k = kItems - 2; k >= 0; --k) s[k] = cur[k] + s[k + 1];
    const float total = s[0];
    // Inclusive suffix scan of the threads' totals within the wavefront segment.
    float inc = total;
    for (int o = 1; o < width; o <<= 1) {
      const float v = __shfl_down(inc, o, width);
      if (seg + o < width) inc += v;
    }
    float after = inc - total;  // the totals of the later threads of this segment
    float group_total;
    if (tpr > ws) {
      const int wave = threadIdx.x / ws;
      __syncthreads();  // the previous chunk's readers are done with wave_total
      if (seg == 0) wave_total[wave] = inc;
      __syncthreads();
      const int first = threadIdx.x / tpr * (tpr / ws);
      const int last = first + tpr / ws;
      group_total = 0.f;
      for (int w = first; w < last; ++w) {
        const float t = wave_total[w];
        group_total += t;
        if (w > wave) after += t;
      }
    } else {
      group_total = __shfl(inc, 0, width);
    }
    const float add = after + carry;
    if (live) {
      if (VEC) {
        if (base < N) {
          *reinterpret_cast<float4*>(yr + base) =
              make_float4(s[0] + add, s[1] + add, s[2] + add, s[3] + add);
        }
      } else {
#pragma unroll
        for (int k = 0; k < kItems; ++k) {
          if (base + k < N) yr[base + k] = s[k] + add;
        }
      }
    }
    carry += group_total;
    if (c > 0) {
#pragma unroll
      for (int k = 0; k < kItems; ++k) cur[k] = nxt[k];
    }
  }
}

}  // namespace

extern "C" int aka_cumsum_reverse(const void* xv, void* yv, int64_t M, int64_t N, void* stream) {
  if (M <= 0 || N <= 0) return 0;
  const float* x = static_cast<const float*>(xv);
  float* y = static_cast<float*>(yv);
  int tpr = 1;
  while (tpr < kBlock && static_cast<int64_t>(tpr) * kItems < N) tpr *= 2;
  const int64_t rows_per_block = kBlock / tpr;
  const int64_t blocks = (M + rows_per_block - 1) / rows_per_block;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  const bool vec = N % kItems == 0 && reinterpret_cast<uintptr_t>(x) % 16 == 0 &&
                   reinterpret_cast<uintptr_t>(y) % 16 == 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  if (vec) {
    hipLaunchKernelGGL(HIP_KERNEL_NAME(cumsum_reverse_rows<true>),
                       dim3(static_cast<unsigned>(blocks)), dim3(kBlock), 0, s, x, y, M, N, tpr);
  } else {
    hipLaunchKernelGGL(HIP_KERNEL_NAME(cumsum_reverse_rows<false>),
                       dim3(static_cast<unsigned>(blocks)), dim3(kBlock), 0, s, x, y, M, N, tpr);
  }
  return static_cast<int>(hipGetLastError());
}
