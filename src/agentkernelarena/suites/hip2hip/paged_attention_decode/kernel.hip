// hip2hip/paged_attention_decode: single-query (decode) attention over a paged KV cache with
// grouped-query heads, as vLLM's paged_attention: for sequence b and query head h, with kv head
// g = h / (Hq / Hkv) and the context's tokens t < context_lens[b] stored at slot t % BS of
// cache block block_tables[b, t / BS]:
//   s_t = (q[b, h, :] . k[t, g, :]) / sqrt(D),  p = softmax(s),  out[b, h, :] = sum_t p_t v[t, g, :]
// in float32, out rounded to q's dtype. Slots past the context's end hold stale tokens that
// must not be attended to.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_paged_attention_decode(const void* q, const void* k_cache,
//       const void* v_cache, const void* block_tables, const void* context_lens, void* out,
//       int64_t B, int64_t Hq, int64_t Hkv, int64_t D, int64_t NB, int64_t BS, int64_t MB,
//       int dtype, void* stream);
// q and out are contiguous B x Hq x D device arrays, k_cache and v_cache NB x BS x Hkv x D, all
// float16 (dtype 1) or bfloat16 (2, raw bits); block_tables is B x MB int32, context_lens B
// int32 in [1, MB * BS] (at most 8192); D is 64 or 128. Launch on `stream` (a hipStream_t)
// and return hipGetLastError(). This file must not include torch headers. It runs on AMD GPUs
// (64-lane wavefronts) and, translated to CUDA by the arena, on NVIDIA GPUs (32-lane warps):
// take the wavefront size from warpSize / hipDeviceAttributeWarpSize, never a constant.
//
// Baseline: one block of 128 threads per (sequence, query head). Each thread scores whole
// tokens (a D-long dot product of its own key row: the lanes read rows D elements apart), the
// scores go to LDS, max and sum are shared-memory trees, then one thread per output dimension
// walks all the tokens' values. The query heads of a group each read their kv head again.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdint>

namespace {

constexpr int kThreads = 128;
constexpr int kMaxTokens = 8192;

struct alignas(2) bf16_t {
  unsigned short bits;
};

__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_float(bf16_t v) {
  return __uint_as_float(static_cast<unsigned>(v.bits) << 16);
}

template <typename T>
__device__ __forceinline__ T from_float(float v);
template <>
__device__ __forceinline__ __half from_float<__half>(float v) { return __float2half_rn(v); }
template <>
__device__ __forceinline__ bf16_t from_float<bf16_t>(float v) {
  unsigned u = __float_as_uint(v);
  if ((u & 0x7fffffffu) > 0x7f800000u) return bf16_t{static_cast<unsigned short>((u >> 16) | 0x40)};
  u += 0x7fffu + ((u >> 16) & 1u);  // round to nearest even
  return bf16_t{static_cast<unsigned short>(u >> 16)};
}

template <typename T>
__global__ void paged_attention(const T* __restrict__ q, const T* __restrict__ k_cache,
                                const T* __restrict__ v_cache, const int* __restrict__ tables,
                                const int* __restrict__ lens, T* __restrict__ out, int64_t Hq,
                                int64_t Hkv, int64_t D, int64_t BS, int64_t MB, float scale) {
  __shared__ float score[kMaxTokens];
  __shared__ float red[kThreads];
  const int tid = threadIdx.x;
  const int64_t bh = blockIdx.x;
  const int64_t b = bh / Hq;
  const int64_t h = bh % Hq;
  const int64_t g = h / (Hq / Hkv);
  const int n = lens[b];
  const T* qrow = q + bh * D;
  const int* table = tables + b * MB;

  float m = -INFINITY;
  for (int t = tid; t < n; t += blockDim.x) {
    const int64_t block = table[t / BS];
    const T* krow = k_cache + ((block * BS + t % BS) * Hkv + g) * D;
    float dot = 0.f;
    for (int64_t d = 0; d < D; ++d) dot += to_float(qrow[d]) * to_float(krow[d]);
    score[t] = dot * scale;
    m = fmaxf(m, score[t]);
  }
  red[tid] = m;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] = fmaxf(red[tid], red[tid + s]);
    __syncthreads();
  }
  const float row_max = red[0];
  __syncthreads();

  float sum = 0.f;
  for (int t = tid; t < n; t += blockDim.x) {
    const float e = expf(score[t] - row_max);
    score[t] = e;
    sum += e;
  }
  red[tid] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
  const float inv_sum = 1.f / red[0];

  for (int64_t d = tid; d < D; d += blockDim.x) {
    float acc = 0.f;
    for (int t = 0; t < n; ++t) {
      const int64_t block = table[t / BS];
      acc += score[t] * to_float(v_cache[((block * BS + t % BS) * Hkv + g) * D + d]);
    }
    out[bh * D + d] = from_float<T>(acc * inv_sum);
  }
}

template <typename T>
int launch(const void* q, const void* k, const void* v, const void* tables, const void* lens,
           void* out, int64_t B, int64_t Hq, int64_t Hkv, int64_t D, int64_t BS, int64_t MB,
           hipStream_t stream) {
  const float scale = 1.f / sqrtf(static_cast<float>(D));
  hipLaunchKernelGGL(paged_attention<T>, dim3(static_cast<unsigned>(B * Hq)), dim3(kThreads), 0,
                     stream, static_cast<const T*>(q), static_cast<const T*>(k),
                     static_cast<const T*>(v), static_cast<const int*>(tables),
                     static_cast<const int*>(lens), static_cast<T*>(out), Hq, Hkv, D, BS, MB,
                     scale);
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_paged_attention_decode(const void* q, const void* k_cache, const void* v_cache,
                                          const void* block_tables, const void* context_lens,
                                          void* out, int64_t B, int64_t Hq, int64_t Hkv,
                                          int64_t D, int64_t NB, int64_t BS, int64_t MB,
                                          int dtype, void* stream) {
  (void)NB;
  if (B <= 0 || Hq <= 0) return 0;
  if (Hkv <= 0 || Hq % Hkv != 0 || MB * BS > kMaxTokens || B * Hq > 2147483647LL) {
    return static_cast<int>(hipErrorInvalidValue);
  }
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 1: return launch<__half>(q, k_cache, v_cache, block_tables, context_lens, out, B, Hq, Hkv,
                                  D, BS, MB, s);
    case 2: return launch<bf16_t>(q, k_cache, v_cache, block_tables, context_lens, out, B, Hq,
                                  Hkv, D, BS, MB, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
