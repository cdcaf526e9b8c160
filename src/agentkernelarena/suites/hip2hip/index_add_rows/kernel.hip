// hip2hip/index_add_rows: out = base.index_add(0, index, src) for float32 rows (the gradient of
// an embedding lookup, a scatter of messages to graph nodes): out starts as a copy of base and
// every source row l is added to row index[l]: out[index[l], :] += src[l, :]. Indices repeat
// (some rows receive thousands of additions). The values are multiples of 1/4 whose sums stay
// exact in float32, so any order of accumulation gives the reference's result.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_index_add_rows(const void* base, const void* index, const void* src,
//                                     void* out, int64_t M, int64_t L, int64_t D,
//                                     void* stream);
// base and out are contiguous M x D float32 device arrays, index L int64 rows in [0, M), src a
// contiguous L x D float32 array. Launch on `stream` (a hipStream_t) and return
// hipGetLastError(). This file must not include torch headers. It runs on AMD GPUs (64-lane
// wavefronts) and, translated to CUDA by the arena, on NVIDIA GPUs (32-lane warps).
//
// Baseline: a kernel copies base into out, then one thread per source element adds it with an
// atomic to global memory (a 64-bit division per element to find its row).
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;

__global__ void copy_rows(const float* __restrict__ base, float* __restrict__ out,
                          int64_t total) {
  const int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e < total) out[e] = base[e];
}

__global__ void scatter_add(const int64_t* __restrict__ index, const float* __restrict__ src,
                            float* __restrict__ out, int64_t M, int64_t total, int64_t D) {
  const int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= total) return;
  const int64_t l = e / D;
  const int64_t d = e - l * D;
  const int64_t row = index[l];
  if (row < 0 || row >= M) return;
  atomicAdd(out + row * D + d, src[e]);
}

}  // namespace

extern "C" int aka_index_add_rows(const void* base, const void* index, const void* src,
                                  void* out, int64_t M, int64_t L, int64_t D, void* stream) {
  if (M <= 0 || D <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  const int64_t rows_total = M * D;
  const int64_t copy_blocks = (rows_total + kThreads - 1) / kThreads;
  const int64_t src_total = L * D;
  const int64_t add_blocks = (src_total + kThreads - 1) / kThreads;
  if (copy_blocks > 2147483647LL || add_blocks > 2147483647LL) {
    return static_cast<int>(hipErrorInvalidValue);
  }
  hipLaunchKernelGGL(copy_rows, dim3(static_cast<unsigned>(copy_blocks)), dim3(kThreads), 0, s,
                     static_cast<const float*>(base), static_cast<float*>(out), rows_total);
  const hipError_t err = hipGetLastError();
  if (err != hipSuccess || L <= 0) return static_cast<int>(err);
  hipLaunchKernelGGL(scatter_add, dim3(static_cast<unsigned>(add_blocks)), dim3(kThreads), 0, s,
                     static_cast<const int64_t*>(index), static_cast<const float*>(src),
                     static_cast<float*>(out), M, src_total, D);
  return static_cast<int>(hipGetLastError());
}
