// torch2cuda/cross_entropy, solution: one block per row, one read of the logits.
//
// Launcher contract as in the skeleton (binding.cpp declares it):
//   extern "C" int aka_cross_entropy(const void* logits, const void* targets, void* loss,
//                                    int64_t M, int64_t V, int64_t ignore_index, int dtype,
//                                    void* stream);
//
// Each thread keeps an online (maximum, sum of exp(x - maximum)) pair over 16-byte packs of
// its row (rescaling only when a pack raises the maximum), the block merges the pairs with
// shuffles and one shared-memory exchange, and thread 0 writes log(sum) + maximum - the
// target's logit. Ignored rows are written as 0 without reading the row. Eager upcasts the
// logits to a float32 copy and writes the float32 log-softmax before gathering from it.
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

constexpr int kMaxThreads = 1024;
constexpr int kMaxPartials = 64;

template <typename T, int N>
struct alignas(sizeof(T) * N) Pack {
  T v[N];
};

// (max, sum of exp(x - max)) pairs merged; an empty pair is (-inf, 0).
__device__ __forceinline__ void merge(float& m, float& s, float m2, float s2) {
  const float mn = fmaxf(m, m2);
  if (mn == -INFINITY) return;
  s = (m == -INFINITY ? 0.f : s * expf(m - mn)) + (m2 == -INFINITY ? 0.f : s2 * expf(m2 - mn));
  m = mn;
}

__device__ __forceinline__ void warp_merge(float& m, float& s) {
  for (int o = warpSize / 2; o > 0; o /= 2) {
    const float m2 = __shfl_xor_sync(0xffffffffu, m, o);
    const float s2 = __shfl_xor_sync(0xffffffffu, s, o);
    merge(m, s, m2, s2);
  }
}

template <typename T, int VEC>
__global__ void __launch_bounds__(kMaxThreads)
    cross_entropy_block_rows(const T* __restrict__ logits, const int64_t* __restrict__ targets,
                             float* __restrict__ loss, int64_t V, int64_t ignore_index) {
  __shared__ float pm[kMaxPartials], ps[kMaxPartials];
  const int64_t row = blockIdx.x;
  const int64_t t = targets[row];
  if (t == ignore_index) {  // uniform over the block: no barrier is skipped by some threads only
    if (threadIdx.x == 0) loss[row] = 0.f;
    return;
  }
  const T* in = logits + row * V;
  float m = -INFINITY, s = 0.f;
  const int64_t packs = V / VEC;
  for (int64_t p = threadIdx.x; p < packs; p += blockDim.x) {
    const Pack<T, VEC> pk = reinterpret_cast<const Pack<T, VEC>*>(in)[p];
    float v[VEC];
    float pmax = m;
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      v[k] = to_float(pk.v[k]);
      pmax = fmaxf(pmax, v[k]);
    }
    if (pmax > m) {
      s = m == -INFINITY ? 0.f : s * expf(m - pmax);
      m = pmax;
    }
#pragma unroll
    for (int k = 0; k < VEC; ++k) s += expf(v[k] - m);
  }
  // The tail of a row whose length is not a multiple of VEC.
  for (int64_t j = packs * VEC + threadIdx.x; j < V; j += blockDim.x) {
    merge(m, s, to_float(in[j]), 1.f);
  }
  warp_merge(m, s);
  const int lane = threadIdx.x % warpSize, wid = threadIdx.x / warpSize;
  if (lane == 0) {
    pm[wid] = m;
    ps[wid] = s;
  }
  __syncthreads();
  if (wid == 0) {
    const int warps = (blockDim.x + warpSize - 1) / warpSize;
    m = lane < warps ? pm[lane] : -INFINITY;
    s = lane < warps ? ps[lane] : 0.f;
    warp_merge(m, s);
    if (lane == 0) loss[row] = logf(s) + m - to_float(in[t]);
  }
}

template <typename T>
int launch(const void* logits_v, const void* targets, void* loss, int64_t M, int64_t V,
           int64_t ignore_index, cudaStream_t stream) {
  int device = 0, warp = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err == cudaSuccess) err = cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device);
  if (err != cudaSuccess) return static_cast<int>(err);
  if (warp <= 0) return static_cast<int>(cudaErrorInvalidValue);
  if (M > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
  const T* logits = static_cast<const T*>(logits_v);
  const int64_t* tg = static_cast<const int64_t*>(targets);
  float* out = static_cast<float*>(loss);
  constexpr int kVec = 16 / static_cast<int>(sizeof(T));
  // Every row starts 16-byte aligned only when V is a multiple of the vector width.
  const bool aligned = reinterpret_cast<uintptr_t>(logits) % 16 == 0 && V % kVec == 0;
  const int vec = aligned ? kVec : 1;
  // About eight packs per thread, whole warps, 64 to 1024 threads.
  int64_t threads = (V / vec + 7) / 8;
  threads = (threads + warp - 1) / warp * warp;
  threads = threads < 64 ? 64 : threads > kMaxThreads ? kMaxThreads : threads;
  const dim3 g(static_cast<unsigned>(M));
  const int tb = static_cast<int>(threads);
  if (aligned) {
    cross_entropy_block_rows<T, kVec><<<g, tb, 0, stream>>>(logits, tg, out, V, ignore_index);
  } else {
    cross_entropy_block_rows<T, 1><<<g, tb, 0, stream>>>(logits, tg, out, V, ignore_index);
  }
  return static_cast<int>(cudaGetLastError());
}

}  // namespace

extern "C" int aka_cross_entropy(const void* logits, const void* targets, void* loss, int64_t M,
                                 int64_t V, int64_t ignore_index, int dtype, void* stream) {
  if (M <= 0 || V <= 0) return 0;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(logits, targets, loss, M, V, ignore_index, s);
    case 1: return launch<__half>(logits, targets, loss, M, V, ignore_index, s);
    case 2: return launch<__nv_bfloat16>(logits, targets, loss, M, V, ignore_index, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
