// hip2hip/histogram: a weighted histogram added to a running one, out[b] = hist[b] + the sum
// of w[i] over the i < N with idx[i] == b (torch: hist + torch.bincount(idx, weights=w,
// minlength=B)), in float32.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_histogram_add(const void* idx, const void* w, const void* hist,
//                                    void* out, int64_t N, int64_t B, void* stream);
// idx is a device array of N int32 bin indices in [0, B) (others are ignored), w of N
// float32 weights, hist and out of B float32 bins (N may be 0: out = hist). Launch on
// `stream` (a hipStream_t) and return hipGetLastError(). This file must not include torch
// headers. It runs on AMD GPUs (64-lane wavefronts) and, translated to CUDA by the arena, on
// NVIDIA GPUs (32-lane warps).
//
// Baseline: a kernel copies hist into out, then one thread per element does one atomic add
// to global memory. Heavy bins get many atomics on one address, which the memory system
// serializes.
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;

__global__ void copy_bins(const float* __restrict__ hist, float* __restrict__ out, int64_t B) {
  const int64_t b = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b < B) out[b] = hist[b];
}

__global__ void histogram_global(const int* __restrict__ idx, const float* __restrict__ w,
                                 float* __restrict__ out, int64_t N, int64_t B) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= N) return;
  const int bin = idx[i];
  if (bin >= 0 && bin < B) atomicAdd(out + bin, w[i]);
}

}  // namespace

extern "C" int aka_histogram_add(const void* idx, const void* w, const void* hist, void* out,
                                 int64_t N, int64_t B, void* stream) {
  if (B <= 0) return 0;
  const int64_t bin_blocks = (B + kThreads - 1) / kThreads;
  const int64_t blocks = (N + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL || bin_blocks > 2147483647LL) {
    return static_cast<int>(hipErrorInvalidValue);
  }
  hipStream_t s = static_cast<hipStream_t>(stream);
  hipLaunchKernelGGL(copy_bins, dim3(static_cast<unsigned>(bin_blocks)), dim3(kThreads), 0, s,
                     static_cast<const float*>(hist), static_cast<float*>(out), B);
  const hipError_t err = hipGetLastError();
  if (err != hipSuccess || N <= 0) return static_cast<int>(err);
  hipLaunchKernelGGL(histogram_global, dim3(static_cast<unsigned>(blocks)), dim3(kThreads), 0, s,
                     static_cast<const int*>(idx), static_cast<const float*>(w),
                     static_cast<float*>(out), N, B);
  return static_cast<int>(hipGetLastError());
}
