// cuda2cuda/paged_decode_attention: for each sequence b and head h, one query q[b, h] (64
// values) attends over the seq_lens[b] cached keys and values of its sequence, which live in
// fixed-size blocks of a shared pool in the order block_table[b, :] lists them:
//   position t of sequence b is row t % block_size of cache block block_table[b, t / bs],
//   s[t] = scale * q[b, h] . k_cache[blk, t % bs, h], p = softmax(s) (float32),
//   out[b, h] = sum_t p[t] * v_cache[blk, t % bs, h].
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_paged_decode_attention(const void* q, const void* k_cache,
//       const void* v_cache, const void* block_table, const void* seq_lens, void* out,
//       int64_t B, int64_t H, int64_t num_blocks, int64_t block_size, int64_t max_blocks,
//       float scale, void* stream);
// float16 q, caches and out (head dim 64), int32 block_table and seq_lens. Launch on `stream`
// (a cudaStream_t) and return cudaGetLastError(). This file must not include torch headers.
//
// Baseline: one block of 128 threads per (sequence, head), three passes: each thread scores
// whole keys (t = tid, tid + 128, ...) into a shared array of scores, a block-wide max and sum
// (shared-memory trees), then 64 threads (one per output dimension) walk all positions
// accumulating p[t] * v[t][d]. Sequences of up to kMaxLen positions.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 128;
constexpr int kDim = 64;
constexpr int kMaxLen = 8192;

__device__ float block_reduce(float v, float* red, bool is_max) {
  const int tid = threadIdx.x;
  red[tid] = v;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] = is_max ? fmaxf(red[tid], red[tid + s]) : red[tid] + red[tid + s];
    __syncthreads();
  }
  const float total = red[0];
  __syncthreads();
  return total;
}

__global__ void paged_decode_naive(const __half* __restrict__ q, const __half* __restrict__ kc,
                                   const __half* __restrict__ vc, const int* __restrict__ table,
                                   const int* __restrict__ seq_lens, __half* __restrict__ out,
                                   int H, int block_size, int max_blocks, float scale) {
  __shared__ float scores[kMaxLen];
  __shared__ float qs[kDim];
  __shared__ float red[kThreads];
  const int bh = blockIdx.x;
  const int b = bh / H;
  const int h = bh % H;
  const int tid = threadIdx.x;
  const int L = seq_lens[b];
  const int* blocks = table + static_cast<int64_t>(b) * max_blocks;
  if (tid < kDim) qs[tid] = __half2float(q[static_cast<int64_t>(bh) * kDim + tid]);
  __syncthreads();

  // Pass 1: scores and their maximum.
  float local_max = -INFINITY;
  for (int t = tid; t < L; t += kThreads) {
    const int64_t blk = blocks[t / block_size];
    const __half* k = kc + ((blk * block_size + t % block_size) * H + h) * kDim;
    float dot = 0.f;
    for (int d = 0; d < kDim; ++d) dot += qs[d] * __half2float(k[d]);
    scores[t] = dot * scale;
    local_max = fmaxf(local_max, dot * scale);
  }
  const float m = block_reduce(local_max, red, true);

  // Pass 2: exponentials and their sum.
  float local_sum = 0.f;
  for (int t = tid; t < L; t += kThreads) {
    const float e = expf(scores[t] - m);
    scores[t] = e;
    local_sum += e;
  }
  const float sum = block_reduce(local_sum, red, false);

  // Pass 3: the weighted sum of the values, one thread per output dimension.
  if (tid < kDim) {
    float acc = 0.f;
    for (int t = 0; t < L; ++t) {
      const int64_t blk = blocks[t / block_size];
      const __half* v = vc + ((blk * block_size + t % block_size) * H + h) * kDim;
      acc += scores[t] * __half2float(v[tid]);
    }
    out[static_cast<int64_t>(bh) * kDim + tid] = __float2half_rn(acc / sum);
  }
}

}  // namespace

extern "C" int aka_paged_decode_attention(const void* q, const void* k_cache,
                                          const void* v_cache, const void* block_table,
                                          const void* seq_lens, void* out, int64_t B, int64_t H,
                                          int64_t num_blocks, int64_t block_size,
                                          int64_t max_blocks, float scale, void* stream) {
  (void)num_blocks;
  if (B <= 0 || H <= 0) return 0;
  if (max_blocks * block_size > kMaxLen || B * H > 2147483647LL || block_size <= 0) {
    return static_cast<int>(cudaErrorInvalidValue);
  }
  paged_decode_naive<<<static_cast<unsigned>(B * H), kThreads, 0,
                       static_cast<cudaStream_t>(stream)>>>(
      static_cast<const __half*>(q), static_cast<const __half*>(k_cache),
      static_cast<const __half*>(v_cache), static_cast<const int*>(block_table),
      static_cast<const int*>(seq_lens), static_cast<__half*>(out), static_cast<int>(H),
      static_cast<int>(block_size), static_cast<int>(max_blocks), scale);
  return static_cast<int>(cudaGetLastError());
}
