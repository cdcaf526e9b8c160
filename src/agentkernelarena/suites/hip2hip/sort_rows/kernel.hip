// hip2hip/sort_rows: ascending sort of every row of a float32 matrix with the positions the
// values came from, as torch.sort(x, dim=-1): values[m, :] is row m sorted ascending and
// indices[m, j] (int64) the column of x that values[m, j] came from. The values of a row are
// distinct (no ties), so the result is unique.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_sort_rows(const void* x, void* values, void* indices, int64_t M,
//                                int64_t N, void* stream);
// x and values are contiguous M x N float32 device arrays, indices M x N int64; N <= 4096 and
// not always a power of two. Launch on `stream` (a hipStream_t) and return hipGetLastError().
// This file must not include torch headers. It runs on AMD GPUs (64-lane wavefronts) and,
// translated to CUDA by the arena, on NVIDIA GPUs (32-lane warps): take the wavefront size
// from warpSize / hipDeviceAttributeWarpSize, never a constant.
//
// Baseline: a bitonic sorting network in global memory, one kernel launch per step. The rows
// are padded (virtually) to the next power of two P with +infinity, which the network leaves
// at the end when every merge sorts ascending: the first step of a merge of size k compares
// i with its mirror i ^ (k - 1), the later ones i with i ^ j. A pair whose upper element is
// padding needs no exchange. log2(P) * (log2(P) + 1) / 2 launches, each reading and writing
// all values and int64 indices.
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;

__global__ void init_rows(const float* __restrict__ x, float* __restrict__ values,
                          int64_t* __restrict__ indices, int64_t total, int64_t N) {
  const int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= total) return;
  values[e] = x[e];
  indices[e] = e % N;
}

// One compare-exchange step over every row: element i meets partner i ^ mask; the lower
// position keeps the smaller value.
__global__ void bitonic_step(float* __restrict__ values, int64_t* __restrict__ indices,
                             int64_t total, int64_t N, int64_t mask) {
  const int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= total) return;
  const int64_t i = e % N;
  const int64_t p = i ^ mask;
  if (p <= i || p >= N) return;
  const int64_t a = e, b = e - i + p;
  const float va = values[a], vb = values[b];
  if (va > vb) {
    values[a] = vb;
    values[b] = va;
    const int64_t t = indices[a];
    indices[a] = indices[b];
    indices[b] = t;
  }
}

}  // namespace

extern "C" int aka_sort_rows(const void* x, void* values, void* indices, int64_t M, int64_t N,
                             void* stream) {
  if (M <= 0 || N <= 0) return 0;
  const int64_t total = M * N;
  const int64_t blocks = (total + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipStream_t s = static_cast<hipStream_t>(stream);
  float* v = static_cast<float*>(values);
  int64_t* idx = static_cast<int64_t*>(indices);
  const dim3 grid(static_cast<unsigned>(blocks));
  hipLaunchKernelGGL(init_rows, grid, dim3(kThreads), 0, s, static_cast<const float*>(x), v, idx,
                     total, N);
  hipError_t err = hipGetLastError();
  if (err != hipSuccess) return static_cast<int>(err);
  int64_t P = 1;
  while (P < N) P <<= 1;
  for (int64_t k = 2; k <= P; k <<= 1) {
    hipLaunchKernelGGL(bitonic_step, grid, dim3(kThreads), 0, s, v, idx, total, N, k - 1);
    err = hipGetLastError();
    if (err != hipSuccess) return static_cast<int>(err);
    for (int64_t j = k / 4; j >= 1; j >>= 1) {
      hipLaunchKernelGGL(bitonic_step, grid, dim3(kThreads), 0, s, v, idx, total, N, j);
      err = hipGetLastError();
      if (err != hipSuccess) return static_cast<int>(err);
    }
  }
  return 0;
}
