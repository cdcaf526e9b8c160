// torch2hip/cross_entropy, solution: one read of the logits, online logsumexp, nothing
// materialized.
//
// Launcher contract as in the skeleton (binding.cpp declares it):
//   extern "C" int aka_cross_entropy(const void* logits, const void* targets, void* loss,
//                                    int64_t M, int64_t V, int64_t ignore_index, int dtype,
//                                    void* stream);
//
// Eager PyTorch writes log_softmax of the logits to an M x V tensor and gathers the targets
// from it (two kernels, three times the bytes of one read of the logits). Here a group of
// `tpr` consecutive threads (a power of two, sized from V) owns a row and reads it once in
// 16-byte packs, four in flight per thread (a row of any length is split into the single
// elements before its first 16-byte boundary, whole packs, and a few single elements at the
// end, so odd vocabulary sizes read as fast as even ones); each thread keeps a running
// maximum and a sum of exponentials relative to it, rescaled only when the maximum grows; the
// group then takes the maximum of the maxima and the sum of the rescaled sums (shuffles, then
// LDS across wavefronts). One thread reads the target's logit and writes the loss. Nothing
// depends on the wavefront size.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

struct alignas(2) bf16_t {
  unsigned short bits;
};

__device__ __forceinline__ float to_float(float v) { return v; }
__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_float(bf16_t v) {
  return __uint_as_float(static_cast<unsigned>(v.bits) << 16);
}

template <typename T>
__device__ __forceinline__ T from_float(float v);
template <>
__device__ __forceinline__ float from_float<float>(float v) { return v; }
template <>
__device__ __forceinline__ __half from_float<__half>(float v) { return __float2half(v); }
template <>
__device__ __forceinline__ bf16_t from_float<bf16_t>(float v) {
  unsigned u = __float_as_uint(v);
  if ((u & 0x7fffffffu) > 0x7f800000u) return bf16_t{static_cast<unsigned short>((u >> 16) | 0x40)};
  u += 0x7fffu + ((u >> 16) & 1u);  // round to nearest even
  return bf16_t{static_cast<unsigned short>(u >> 16)};
}

template <typename T, int VEC>
struct alignas(sizeof(T) * VEC) Pack {
  T v[VEC];
};

constexpr int kBlock = 256;          // threads per block when several rows share one
constexpr int kMaxRowThreads = 1024;  // threads of one row, at most (then one row per block)
constexpr int kPacksPerThread = 16;   // 16-byte packs each thread of a row reads, about

__device__ __forceinline__ float combine(float a, float b, bool is_max) {
  return is_max ? fmaxf(a, b) : a + b;
}

// Sum (or maximum) of v over the `tpr` threads of a row: tpr is a power of two and a row's
// threads are consecutive in a 1-D block. Within a wavefront a butterfly of shuffles; across
// wavefronts (tpr > warpSize) the wavefronts' partials go through LDS and every thread
// combines those of its row. Every thread of the block calls it (it may hold barriers).
__device__ __forceinline__ float group_reduce(float v, int tpr, float* red, bool is_max) {
  const int ws = warpSize;
  for (int o = (tpr < ws ? tpr : ws) / 2; o > 0; o >>= 1) {
    v = combine(v, __shfl_xor(v, o), is_max);
  }
  if (tpr <= ws) return v;
  const int wave = threadIdx.x / ws;
  __syncthreads();  // the previous call's readers are done with red
  if (threadIdx.x % ws == 0) red[wave] = v;
  __syncthreads();
  const int per = tpr / ws, first = wave / per * per;
  float total = red[first];
  for (int i = 1; i < per; ++i) total = combine(total, red[first + i], is_max);
  return total;
}

// Threads per row: enough that `per_thread` packs each cover the row (up to kMaxRowThreads),
// and at least a few so that a row's loads coalesce.
inline int threads_per_row(int64_t packs, int per_thread) {
  int tpr = 1;
  while (tpr < kMaxRowThreads && static_cast<int64_t>(tpr) * per_thread < packs) tpr *= 2;
  while (tpr < 16 && tpr < packs) tpr *= 2;
  return tpr;
}

// Folds one value into the running (maximum, sum of exp(x - maximum)) of a thread.
__device__ __forceinline__ void online(float& mx, float& sum, float v) {
  if (v > mx) {
    sum *= __expf(mx - v);
    mx = v;
  }
  sum += __expf(v - mx);
}

// Folds one pack: one rescale at most, when the pack raises the maximum (rare once a few
// packs are in: the maximum settles).
template <typename T, int VEC>
__device__ __forceinline__ void online(float& mx, float& sum, const Pack<T, VEC>& p) {
  float v[VEC];
  float pm = to_float(p.v[0]);
#pragma unroll
  for (int j = 0; j < VEC; ++j) {
    v[j] = to_float(p.v[j]);
    pm = fmaxf(pm, v[j]);
  }
  if (pm > mx) {
    sum *= __expf(mx - pm);
    mx = pm;
  }
#pragma unroll
  for (int j = 0; j < VEC; ++j) sum += __expf(v[j] - mx);
}

template <typename T, int VEC, int MAX_THREADS>
__global__ void __launch_bounds__(MAX_THREADS)
    cross_entropy_rows(const T* __restrict__ logits, const int64_t* __restrict__ targets,
                       T* __restrict__ loss, int64_t M, int64_t V, int tpr,
                       int64_t ignore_index) {
  using P = Pack<T, VEC>;
  __shared__ float red[32];  // one partial per wavefront: at most 1024 / 32
  const int lane = threadIdx.x % tpr;
  const int64_t m = static_cast<int64_t>(blockIdx.x) * (blockDim.x / tpr) + threadIdx.x / tpr;
  const bool live = m < M;
  const T* row = logits + m * V;
  // A row is a few single elements up to the first 16-byte boundary (rows of any length V
  // start anywhere), whole packs, and fewer than VEC single elements after them.
  const int64_t misalign = static_cast<int64_t>(reinterpret_cast<uintptr_t>(row) % 16);
  const int64_t head_bytes = (16 - misalign) % 16;
  const int64_t head = head_bytes / static_cast<int64_t>(sizeof(T)) < V
                           ? head_bytes / static_cast<int64_t>(sizeof(T))
                           : V;
  const int64_t packs = (V - head) / VEC;
  const int64_t rest = V - head - packs * VEC;
  const P* body = reinterpret_cast<const P*>(row + head);

  float mx = -INFINITY, sum = 0.f;
  if (live && lane < head + rest) {
    online(mx, sum, to_float(row[lane < head ? lane : head + packs * VEC + (lane - head)]));
  }
  int64_t p = lane;
  for (; live && p + 3 * tpr < packs; p += 4 * tpr) {  // four packs in flight
    const P a = body[p], b = body[p + tpr], c = body[p + 2 * tpr], d = body[p + 3 * tpr];
    online(mx, sum, a);
    online(mx, sum, b);
    online(mx, sum, c);
    online(mx, sum, d);
  }
  for (; live && p < packs; p += tpr) online(mx, sum, body[p]);

  const float row_max = group_reduce(mx, tpr, red, true);
  // A thread that saw nothing has mx = -inf and sum = 0: its term is 0.
  const float scaled = sum == 0.f ? 0.f : sum * __expf(mx - row_max);
  const float row_sum = group_reduce(scaled, tpr, red, false);
  if (live && lane == 0) {
    const int64_t t = targets[m];
    const bool valid = t != ignore_index && t >= 0 && t < V;
    const float target_logit = valid ? to_float(row[t]) : 0.f;
    loss[m] = from_float<T>(valid ? row_max + __logf(row_sum) - target_logit : 0.f);
  }
}

template <typename T>
int launch(const void* lv, const void* tv, void* outv, int64_t M, int64_t V, int64_t ignore_index,
           hipStream_t stream) {
  const T* logits = static_cast<const T*>(lv);
  const int64_t* targets = static_cast<const int64_t*>(tv);
  T* loss = static_cast<T*>(outv);
  constexpr int kVec = 16 / static_cast<int>(sizeof(T));
  // About kPacksPerThread packs per thread: long loops, few threads per row to combine.
  // At least 16 threads: the single elements around the packs (fewer than 2 * kVec) take one
  // thread each.
  int tpr = threads_per_row(V / kVec, kPacksPerThread);
  if (tpr < 16) tpr = 16;
  const int threads = tpr > kBlock ? tpr : kBlock;
  const int64_t rows_per_block = threads / tpr;
  const int64_t blocks = (M + rows_per_block - 1) / rows_per_block;
  if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  const dim3 grid(static_cast<unsigned>(blocks));
  if (threads <= kBlock) {
    hipLaunchKernelGGL(HIP_KERNEL_NAME(cross_entropy_rows<T, kVec, kBlock>), grid, dim3(threads),
                       0, stream, logits, targets, loss, M, V, tpr, ignore_index);
  } else {
    hipLaunchKernelGGL(HIP_KERNEL_NAME(cross_entropy_rows<T, kVec, kMaxRowThreads>), grid,
                       dim3(threads), 0, stream, logits, targets, loss, M, V, tpr, ignore_index);
  }
  return static_cast<int>(hipGetLastError());
}

}  // namespace

extern "C" int aka_cross_entropy(const void* logits, const void* targets, void* loss, int64_t M,
                                 int64_t V, int64_t ignore_index, int dtype, void* stream) {
  if (M <= 0 || V <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(logits, targets, loss, M, V, ignore_index, s);
    case 1: return launch<__half>(logits, targets, loss, M, V, ignore_index, s);
    case 2: return launch<bf16_t>(logits, targets, loss, M, V, ignore_index, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
