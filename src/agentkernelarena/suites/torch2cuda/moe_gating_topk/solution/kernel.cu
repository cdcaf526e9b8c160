// torch2cuda/moe_gating_topk, solution: a warp (or a segment of one, for small E) per token,
// the row in registers.
//
// Launcher contract as in the skeleton (binding.cpp declares it):
//   extern "C" int aka_moe_gating_topk(const void* logits, void* combine, int64_t T, int64_t E,
//                                      int64_t k, int dtype, void* stream);
//
// Lane l of a token's S lanes holds experts l, l + S, ... (coalesced loads). Each of the k
// rounds is an argmax by shuffles within the segment over the experts not yet taken (larger
// logit first, then the lower expert); the owner marks its expert taken and keeps its
// exp(v - v_0). The full softmax sum cancels in the renormalization, so a chosen expert's weight
// is exp(v - v_0) / (sum over the k picks of exp(v_i - v_0)); each lane then writes its experts'
// entries of the combine row (coalesced, zeros included): one read of the logits, one write,
// one launch (eager: softmax to a float32 tensor, topk, sum, division, zeros, scatter).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace {

__device__ __forceinline__ float to_float(float v) { return v; }
__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }

template <typename T>
__device__ __forceinline__ T from_float(float v);
template <>
__device__ __forceinline__ float from_float<float>(float v) { return v; }
template <>
__device__ __forceinline__ __half from_float<__half>(float v) { return __float2half_rn(v); }
template <>
__device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) {
  return __float2bfloat16_rn(v);
}

constexpr int kThreads = 128;

// S lanes (a power of two dividing warpSize, at least E / PER_LANE) per token: warpSize / S
// tokens per warp, so that a warp is busy for small E too.
template <typename T, int PER_LANE>
__global__ void __launch_bounds__(kThreads)
    gate_segment_rows(const T* __restrict__ logits, float* __restrict__ combine, int64_t Tn,
                      int E, int k, int S) {
  const int lane = threadIdx.x % S;
  const int64_t row = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / S;
  // No early return: every lane of the warp takes part in the shuffles.
  const bool valid = row < Tn;
  const T* in = logits + (valid ? row : 0) * E;
  float v[PER_LANE], ew[PER_LANE];
  unsigned taken = 0;  // bit i: expert lane + i * S is chosen (or absent)
#pragma unroll
  for (int i = 0; i < PER_LANE; ++i) {
    const int j = lane + i * S;
    v[i] = valid && j < E ? to_float(in[j]) : -INFINITY;
    ew[i] = 0.f;
    if (j >= E) taken |= 1u << i;
  }
  float top = 0.f, sum = 0.f;
  for (int r = 0; r < k; ++r) {
    float bv = -INFINITY;
    int bj = 0x7fffffff;
#pragma unroll
    for (int i = 0; i < PER_LANE; ++i) {
      const int j = lane + i * S;
      if (!((taken >> i) & 1u) && (v[i] > bv || (v[i] == bv && j < bj))) {
        bv = v[i];
        bj = j;
      }
    }
    for (int o = S / 2; o > 0; o /= 2) {  // stays inside the segment
      const float ov = __shfl_xor_sync(0xffffffffu, bv, o);
      const int oj = __shfl_xor_sync(0xffffffffu, bj, o);
      if (ov > bv || (ov == bv && oj < bj)) {
        bv = ov;
        bj = oj;
      }
    }
    if (r == 0) top = bv;
    const float e = expf(bv - top);
    sum += e;
    if (bj % S == lane) {
      const int slot = bj / S;
      taken |= 1u << slot;
#pragma unroll
      for (int i = 0; i < PER_LANE; ++i) {
        if (i == slot) ew[i] = e;  // static indexing keeps ew in registers
      }
    }
  }
  if (!valid) return;
  const float inv = 1.f / sum;
  float* out = combine + row * E;
#pragma unroll
  for (int i = 0; i < PER_LANE; ++i) {
    const int j = lane + i * S;
    if (j < E) out[j] = ew[i] * inv;  // 0 for the experts not chosen
  }
}

template <typename T, int PER_LANE>
int launch_rows(const T* logits, float* combine, int64_t Tn, int E, int k, int S,
                cudaStream_t s) {
  const int rows_per_block = kThreads / S;
  const int64_t blocks = (Tn + rows_per_block - 1) / rows_per_block;
  if (blocks > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
  gate_segment_rows<T, PER_LANE><<<static_cast<unsigned>(blocks), kThreads, 0, s>>>(
      logits, combine, Tn, E, k, S);
  return static_cast<int>(cudaGetLastError());
}

template <typename T>
int launch(const void* logits_v, void* combine_v, int64_t Tn, int64_t E, int64_t k,
           cudaStream_t stream) {
  int device = 0, warp = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err == cudaSuccess) err = cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device);
  if (err != cudaSuccess) return static_cast<int>(err);
  if (warp <= 0 || kThreads % warp != 0) return static_cast<int>(cudaErrorInvalidValue);
  int S = 1;  // segment width: the next power of two of E, at most a warp
  while (S < E && S < warp) S *= 2;
  const int64_t per_lane = (E + S - 1) / S;
  if (per_lane > 32) return static_cast<int>(cudaErrorInvalidValue);
  const T* logits = static_cast<const T*>(logits_v);
  float* combine = static_cast<float*>(combine_v);
  const int e = static_cast<int>(E), kk = static_cast<int>(k);
  if (per_lane <= 1) return launch_rows<T, 1>(logits, combine, Tn, e, kk, S, stream);
  if (per_lane <= 2) return launch_rows<T, 2>(logits, combine, Tn, e, kk, S, stream);
  if (per_lane <= 4) return launch_rows<T, 4>(logits, combine, Tn, e, kk, S, stream);
  if (per_lane <= 8) return launch_rows<T, 8>(logits, combine, Tn, e, kk, S, stream);
  if (per_lane <= 16) return launch_rows<T, 16>(logits, combine, Tn, e, kk, S, stream);
  return launch_rows<T, 32>(logits, combine, Tn, e, kk, S, stream);
}

}  // namespace

extern "C" int aka_moe_gating_topk(const void* logits, void* combine, int64_t T, int64_t E,
                                   int64_t k, int dtype, void* stream) {
  if (T <= 0) return 0;
  if (k < 1 || k > E) return static_cast<int>(cudaErrorInvalidValue);
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(logits, combine, T, E, k, s);
    case 1: return launch<__half>(logits, combine, T, E, k, s);
    case 2: return launch<__nv_bfloat16>(logits, combine, T, E, k, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
