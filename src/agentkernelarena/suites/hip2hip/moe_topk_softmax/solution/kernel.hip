// hip2hip/moe_topk_softmax, solution: a group of lanes per token, the row read once into
// registers, the K picks by shuffle reductions, no full softmax sum.
//
// Launcher contract as in the baseline (binding.cpp declares it):
//   extern "C" int aka_moe_topk_softmax(const void* logits, void* weights, void* ids,
//                                       int64_t T, int64_t E, int64_t K, int dtype,
//                                       void* stream);
//
// A token belongs to a group of G lanes (G = the power of two >= E, at most the wavefront
// size, so a group never straddles wavefronts; blockDim = (G, 256 / G)). Lane l holds the
// logits of experts l, l + G, l + 2G, ... (NPL of them, coalesced loads). Each of the K rounds
// takes the lane-local maximum and reduces (value, expert) pairs across the group with
// __shfl_xor; the owner of the pick removes it, and lane j keeps the j-th pick. Since the
// renormalized weight p_j / sum of the picked p equals exp(l_j - max) / sum over the picks of
// exp(l_i - max), the softmax over all E experts is never summed: lane j computes its
// exponential, one more group reduction sums the K of them, and lanes 0..K-1 store.
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

template <typename T, int NPL>
__global__ void __launch_bounds__(kThreads)
    topk_softmax_group(const T* __restrict__ logits, float* __restrict__ weights,
                       int* __restrict__ ids, int64_t num_tokens, int E, int K) {
  const int G = blockDim.x;
  const int lane = threadIdx.x;
  const int64_t t = static_cast<int64_t>(blockIdx.x) * blockDim.y + threadIdx.y;
  // A group past the last token keeps running (with -inf values): its wavefront's shuffles
  // need every lane.
  const bool active = t < num_tokens;
  const T* row = logits + (active ? t : 0) * E;

  float v[NPL];
#pragma unroll
  for (int i = 0; i < NPL; ++i) {
    const int e = lane + i * G;
    v[i] = (active && e < E) ? to_float(row[e]) : -INFINITY;
  }

  float row_max = -INFINITY;
  float mine_v = -INFINITY;
  int mine_i = 0;
  for (int j = 0; j < K; ++j) {
    float bv = -INFINITY;
    int bi = 0x7fffffff;
#pragma unroll
    for (int i = 0; i < NPL; ++i) {
      if (v[i] > bv) {
        bv = v[i];
        bi = lane + i * G;
      }
    }
    for (int offset = G / 2; offset > 0; offset /= 2) {
      const float ov = __shfl_xor(bv, offset);
      const int oi = __shfl_xor(bi, offset);
      if (ov > bv || (ov == bv && oi < bi)) {
        bv = ov;
        bi = oi;
      }
    }
    if (j == 0) row_max = bv;
    if (lane == j) {
      mine_v = bv;
      mine_i = bi;
    }
#pragma unroll
    for (int i = 0; i < NPL; ++i) {
      if (lane + i * G == bi) v[i] = -INFINITY;
    }
  }

  const float ex = (active && lane < K) ? expf(mine_v - row_max) : 0.f;
  float total = ex;
  for (int offset = G / 2; offset > 0; offset /= 2) total += __shfl_xor(total, offset);
  if (active && lane < K) {
    weights[t * K + lane] = ex / total;
    ids[t * K + lane] = mine_i;
  }
}

template <typename T, int NPL>
int launch_npl(const void* logits, void* weights, void* ids, int64_t num_tokens, int E, int K,
               int G, hipStream_t stream) {
  const int rows = kThreads / G;
  const int64_t blocks = (num_tokens + rows - 1) / rows;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(topk_softmax_group<T, NPL>),
                     dim3(static_cast<unsigned>(blocks)), dim3(G, rows), 0, stream,
                     static_cast<const T*>(logits), static_cast<float*>(weights),
                     static_cast<int*>(ids), num_tokens, E, K);
  return static_cast<int>(hipGetLastError());
}

template <typename T>
int launch(const void* logits, void* weights, void* ids, int64_t num_tokens, int E, int K,
           hipStream_t stream) {
  int device = 0, warp = 0;
  hipError_t err = hipGetDevice(&device);
  if (err != hipSuccess) return static_cast<int>(err);
  err = hipDeviceGetAttribute(&warp, hipDeviceAttributeWarpSize, device);
  if (err != hipSuccess) return static_cast<int>(err);
  int G = 1;
  while (G < E && G < warp) G *= 2;
  const int npl = (E + G - 1) / G;
  if (npl <= 1) return launch_npl<T, 1>(logits, weights, ids, num_tokens, E, K, G, stream);
  if (npl <= 2) return launch_npl<T, 2>(logits, weights, ids, num_tokens, E, K, G, stream);
  if (npl <= 4) return launch_npl<T, 4>(logits, weights, ids, num_tokens, E, K, G, stream);
  if (npl <= 8) return launch_npl<T, 8>(logits, weights, ids, num_tokens, E, K, G, stream);
  if (npl <= 16) return launch_npl<T, 16>(logits, weights, ids, num_tokens, E, K, G, stream);
  return launch_npl<T, 32>(logits, weights, ids, num_tokens, E, K, G, stream);
}

}  // namespace

extern "C" int aka_moe_topk_softmax(const void* logits, void* weights, void* ids, int64_t T,
                                    int64_t E, int64_t K, int dtype, void* stream) {
  if (T <= 0) return 0;
  if (E < 1 || E > 1024 || K < 1 || K > E || K > 32) return static_cast<int>(hipErrorInvalidValue);
  hipStream_t s = static_cast<hipStream_t>(stream);
  const int e = static_cast<int>(E), k = static_cast<int>(K);
  switch (dtype) {
    case 0: return launch<float>(logits, weights, ids, T, e, k, s);
    case 1: return launch<__half>(logits, weights, ids, T, e, k, s);
    case 2: return launch<bf16_t>(logits, weights, ids, T, e, k, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
