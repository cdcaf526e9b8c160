// cuda2cuda/histogram: counts[i] += #{ v in x : edges[i] <= v < edges[i + 1] }, with v equal
// to edges[B] counted in bin B - 1 and values outside [edges[0], edges[B]] (and NaN) skipped.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_histogram(const void* x, const void* edges, void* counts, int64_t N,
//                                int64_t B, void* stream);
// x: N float32 values; edges: B + 1 strictly increasing float32 values (2 <= B <= 4096);
// counts: B int32 device values, zero on entry (the binding allocates them with zeros). Launch
// on `stream` (a cudaStream_t) and return cudaGetLastError() (0 when the launch went fine).
// This file must not include torch headers.
//
// Baseline: one thread per value, a binary search over the edges in global memory, and an
// atomicAdd on the global counts for each value.
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;

// The bin of v (edges[bin] <= v < edges[bin + 1], v == edges[B] in bin B - 1), or -1.
__device__ __forceinline__ int find_bin(const float* edges, int B, float v) {
  if (!(v >= edges[0] && v <= edges[B])) return -1;  // also NaN
  if (v == edges[B]) return B - 1;
  int lo = 0, hi = B;  // edges[lo] <= v < edges[hi]
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    if (edges[mid] <= v) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

__global__ void histogram_values(const float* __restrict__ x, const float* __restrict__ edges,
                                 int* __restrict__ counts, int64_t N, int B) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= N) return;
  const int bin = find_bin(edges, B, x[i]);
  if (bin >= 0) atomicAdd(&counts[bin], 1);
}

}  // namespace

extern "C" int aka_histogram(const void* x, const void* edges, void* counts, int64_t N,
                             int64_t B, void* stream) {
  if (N <= 0) return 0;
  if (B < 1 || B > 2147483646LL) return static_cast<int>(cudaErrorInvalidValue);
  const int64_t blocks = (N + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
  histogram_values<<<static_cast<unsigned>(blocks), kThreads, 0,
                     static_cast<cudaStream_t>(stream)>>>(
      static_cast<const float*>(x), static_cast<const float*>(edges), static_cast<int*>(counts),
      N, static_cast<int>(B));
  return static_cast<int>(cudaGetLastError());
}
