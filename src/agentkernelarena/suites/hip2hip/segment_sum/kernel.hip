// hip2hip/segment_sum: out[s, :] = sum of the rows x[offsets[s] : offsets[s + 1], :], in
// float32 (torch_scatter's segment_csr with reduce="sum"); an empty segment gives zeros.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_segment_sum(const void* x, const void* offsets, void* out, int64_t N,
//                                  int64_t D, int64_t S, int dtype, void* stream);
// x is a contiguous N x D device array (0 float32, 1 float16, 2 bfloat16), offsets S + 1
// non-decreasing int64 values from 0 to N, out a contiguous S x D float32 array that arrives
// filled with zeros. Launch on `stream` (a hipStream_t) and return hipGetLastError(). This
// file must not include torch headers. It runs on AMD GPUs (64-lane wavefronts) and,
// translated to CUDA by the arena, on NVIDIA GPUs (32-lane warps).
//
// Baseline: one thread per output element (s, d), which walks the rows of its segment one
// after another and writes the sum.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;

struct alignas(2) bf16_t {
  unsigned short bits;
};

__device__ __forceinline__ float to_float(float v) { return v; }
__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_float(bf16_t v) {
  return __uint_as_float(static_cast<unsigned>(v.bits) << 16);
}

template <typename T>
__global__ void segment_sum_naive(const T* __restrict__ x, const int64_t* __restrict__ offsets,
                                  float* __restrict__ out, int64_t D, int64_t S) {
  const int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= S * D) return;
  const int64_t s = idx / D;
  const int64_t d = idx % D;
  float acc = 0.f;
  for (int64_t r = offsets[s]; r < offsets[s + 1]; ++r) acc += to_float(x[r * D + d]);
  out[idx] = acc;
}

template <typename T>
int launch(const void* x, const void* offsets, void* out, int64_t D, int64_t S,
           hipStream_t stream) {
  const int64_t blocks = (S * D + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(segment_sum_naive<T>, dim3(static_cast<unsigned>(blocks)), dim3(kThreads), 0,
                     stream, static_cast<const T*>(x), static_cast<const int64_t*>(offsets),
                     static_cast<float*>(out), D, S);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_segment_sum(const void* x, const void* offsets, void* out, int64_t N,
                               int64_t D, int64_t S, int dtype, void* stream) {
  if (N <= 0 || D <= 0 || S <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, offsets, out, D, S, s);
    case 1: return launch<__half>(x, offsets, out, D, S, s);
    case 2: return launch<bf16_t>(x, offsets, out, D, S, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
