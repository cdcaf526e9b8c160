// hip2hip/reshape_and_cache: write the keys and values of new tokens into a paged KV cache
// (vLLM's reshape_and_cache, cache layout NB x BS x H x D). For every token t with
// slot = slots[t] >= 0, k_cache[slot / BS, slot % BS] = key[t] and v_cache[...] = value[t];
// a slot of -1 (a padding token) writes nothing. Every other cache entry keeps its contents.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_reshape_and_cache(const void* key, const void* value, void* k_cache,
//                                        void* v_cache, const void* slots, int64_t T,
//                                        int64_t H, int64_t D, int64_t BS, int64_t NB,
//                                        int dtype, void* stream);
// key, value: contiguous T x H x D; caches: contiguous NB x BS x H x D, one 2-byte dtype
// (1 float16, 2 bfloat16: a copy, so only the size matters); slots: int64 of length T. The
// caches are written in place. Launch on `stream` (a hipStream_t) and return
// hipGetLastError(). This file must not include torch headers. It runs on AMD GPUs (64-lane
// wavefronts) and, translated to CUDA by the arena, on NVIDIA GPUs (32-lane warps).
//
// Baseline: two launches (keys, then values), one thread per 2-byte element, each recovering
// its token and position from a flat 64-bit index with a division and a remainder and reading
// the token's slot itself.
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;

// dst[slot * HD + e] = src[t * HD + e] for the element idx = t * HD + e.
__global__ void cache_write_flat(const uint16_t* __restrict__ src, uint16_t* __restrict__ cache,
                                 const int64_t* __restrict__ slots, int64_t T, int64_t HD) {
  const int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= T * HD) return;
  const int64_t t = idx / HD;
  const int64_t e = idx % HD;
  const int64_t slot = slots[t];
  if (slot < 0) return;
  cache[slot * HD + e] = src[idx];
}

}  // namespace

extern "C" int aka_reshape_and_cache(const void* key, const void* value, void* k_cache,
                                     void* v_cache, const void* slots, int64_t T, int64_t H,
                                     int64_t D, int64_t BS, int64_t NB, int dtype,
                                     void* stream) {
  (void)BS;
  (void)NB;
  if (dtype != 1 && dtype != 2) return static_cast<int>(hipErrorInvalidValue);
  if (T <= 0 || H <= 0 || D <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  const int64_t HD = H * D;
  const int64_t blocks = (T * HD + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  const int64_t* sl = static_cast<const int64_t*>(slots);
  hipLaunchKernelGGL(cache_write_flat, dim3(static_cast<unsigned>(blocks)), dim3(kThreads), 0, s,
                     static_cast<const uint16_t*>(key), static_cast<uint16_t*>(k_cache), sl, T,
                     HD);
  const hipError_t err = hipGetLastError();
  if (err != hipSuccess) return static_cast<int>(err);
  hipLaunchKernelGGL(cache_write_flat, dim3(static_cast<unsigned>(blocks)), dim3(kThreads), 0, s,
                     static_cast<const uint16_t*>(value), static_cast<uint16_t*>(v_cache), sl, T,
                     HD);
  return static_cast<int>(hipGetLastError());
}
