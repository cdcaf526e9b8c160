// cuda2cuda/gemv, solution: a group of lanes per row, 16-byte loads, several loads in flight.
//
// Launcher contract as in the baseline (binding.cpp declares it):
//   extern "C" int aka_gemv(const void* a, const void* x, void* y, int64_t M, int64_t K,
//                           int dtype, void* stream);
//
// The baseline gives each row to one thread: a warp's 32 loads touch 32 different rows (32
// cache lines for 64-128 useful bytes), and a GPU-full of rows is needed before all SMs work.
// Here the lanes of a group (4 to 32 lanes, a power of two; fewer for short rows so that no
// lane idles) read consecutive 16-byte packs of one row, so a warp's load is whole cache
// lines, and each lane keeps four packs of A (and x, which stays in L1/L2) in flight before
// it multiplies. The group's partial sums meet through xor shuffles. When there are too few
// rows to fill the GPU with groups (M < 16 * SMs) and the rows are long, a whole block of 256
// threads works on each row instead (block sum: shuffles plus one shared-memory exchange).
// 16-byte packs need K to be a multiple of the pack width and a, x 16-byte aligned; the
// scalar path (pack width 1) covers the rest.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;     // threads per block, both kernels
constexpr int kUnroll = 4;        // packs of A per lane in flight
constexpr int kMaxPartials = 64;  // block partials: 1024 threads / at least 16 lanes

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

template <typename T, int VEC>
struct alignas(sizeof(T) * VEC) Pack {
  T v[VEC];
};

// The dot product of the packs lane, lane + lanes, ... of one row with x.
template <typename T, int VEC>
__device__ __forceinline__ float row_dot(const T* __restrict__ a_row, const T* __restrict__ x,
                                         int64_t K, int lane, int lanes) {
  using P = Pack<T, VEC>;
  const int64_t step = static_cast<int64_t>(lanes) * VEC;
  int64_t col = static_cast<int64_t>(lane) * VEC;
  float acc = 0.f;
  // All loads of an iteration are issued before the first multiply.
  for (; col + (kUnroll - 1) * step < K; col += kUnroll * step) {
    P pa[kUnroll], px[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      pa[u] = *reinterpret_cast<const P*>(a_row + col + u * step);
      px[u] = *reinterpret_cast<const P*>(x + col + u * step);
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
#pragma unroll
      for (int k = 0; k < VEC; ++k) acc += to_float(pa[u].v[k]) * to_float(px[u].v[k]);
    }
  }
  for (; col < K; col += step) {
    const P pa = *reinterpret_cast<const P*>(a_row + col);
    const P px = *reinterpret_cast<const P*>(x + col);
#pragma unroll
    for (int k = 0; k < VEC; ++k) acc += to_float(pa.v[k]) * to_float(px.v[k]);
  }
  return acc;
}

// GROUP consecutive lanes per row (GROUP divides the warp size), kThreads / GROUP rows per
// block. Every lane reaches the shuffles, also those of rows past M.
template <typename T, int VEC, int GROUP>
__global__ void gemv_group_rows(const T* __restrict__ a, const T* __restrict__ x,
                                T* __restrict__ y, int64_t M, int64_t K) {
  const int lane = threadIdx.x % GROUP;
  const int64_t row = static_cast<int64_t>(blockIdx.x) * (blockDim.x / GROUP) + threadIdx.x / GROUP;
  const bool valid = row < M;
  float acc = valid ? row_dot<T, VEC>(a + row * K, x, K, lane, GROUP) : 0.f;
#pragma unroll
  for (int offset = GROUP / 2; offset > 0; offset /= 2) {
    acc += __shfl_xor_sync(0xffffffffu, acc, offset);
  }
  if (valid && lane == 0) y[row] = from_float<T>(acc);
}

// A block per row, for few long rows.
template <typename T, int VEC>
__global__ void gemv_block_rows(const T* __restrict__ a, const T* __restrict__ x,
                                T* __restrict__ y, int64_t K) {
  __shared__ float partial[kMaxPartials];
  const int64_t row = blockIdx.x;
  float acc = row_dot<T, VEC>(a + row * K, x, K, threadIdx.x, blockDim.x);
  for (int offset = warpSize / 2; offset > 0; offset /= 2) {
    acc += __shfl_xor_sync(0xffffffffu, acc, offset);
  }
  const int lane = threadIdx.x % warpSize;
  const int wid = threadIdx.x / warpSize;
  if (lane == 0) partial[wid] = acc;
  __syncthreads();
  if (wid == 0) {
    const int warps = (blockDim.x + warpSize - 1) / warpSize;
    acc = lane < warps ? partial[lane] : 0.f;
    for (int offset = warpSize / 2; offset > 0; offset /= 2) {
      acc += __shfl_xor_sync(0xffffffffu, acc, offset);
    }
    if (lane == 0) y[row] = from_float<T>(acc);
  }
}

template <typename T, int VEC>
int launch_vec(const T* a, const T* x, T* y, int64_t M, int64_t K, int warp, int sms,
               cudaStream_t stream) {
  if (M < 16LL * sms && K >= 1024) {
    gemv_block_rows<T, VEC><<<static_cast<unsigned>(M), kThreads, 0, stream>>>(a, x, y, K);
    return static_cast<int>(cudaGetLastError());
  }
  // About two packs per lane, at least 4 lanes (a quarter warp still loads whole sectors).
  const int64_t packs = (K + VEC - 1) / VEC;
  int group = 4;
  while (group < 32 && group < warp && static_cast<int64_t>(group) * 2 < packs) group *= 2;
  const int64_t rows_per_block = kThreads / group;
  const int64_t blocks = (M + rows_per_block - 1) / rows_per_block;
  if (blocks > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
  const dim3 grid(static_cast<unsigned>(blocks));
  switch (group) {
    case 4: gemv_group_rows<T, VEC, 4><<<grid, kThreads, 0, stream>>>(a, x, y, M, K); break;
    case 8: gemv_group_rows<T, VEC, 8><<<grid, kThreads, 0, stream>>>(a, x, y, M, K); break;
    case 16: gemv_group_rows<T, VEC, 16><<<grid, kThreads, 0, stream>>>(a, x, y, M, K); break;
    default: gemv_group_rows<T, VEC, 32><<<grid, kThreads, 0, stream>>>(a, x, y, M, K);
  }
  return static_cast<int>(cudaGetLastError());
}

template <typename T>
int launch(const void* av, const void* xv, void* yv, int64_t M, int64_t K, cudaStream_t stream) {
  int device = 0, warp = 0, sms = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err == cudaSuccess) err = cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device);
  if (err == cudaSuccess) {
    err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  }
  if (err != cudaSuccess) return static_cast<int>(err);
  if (warp < 4 || sms <= 0) return static_cast<int>(cudaErrorInvalidValue);
  const T* a = static_cast<const T*>(av);
  const T* x = static_cast<const T*>(xv);
  T* y = static_cast<T*>(yv);
  constexpr int kVec = 16 / static_cast<int>(sizeof(T));
  const bool aligned = reinterpret_cast<uintptr_t>(a) % 16 == 0 &&
                       reinterpret_cast<uintptr_t>(x) % 16 == 0 && K % kVec == 0;
  return aligned ? launch_vec<T, kVec>(a, x, y, M, K, warp, sms, stream)
                 : launch_vec<T, 1>(a, x, y, M, K, warp, sms, stream);
}

}  // namespace

extern "C" int aka_gemv(const void* a, const void* x, void* y, int64_t M, int64_t K, int dtype,
                        void* stream) {
  if (M <= 0 || K <= 0) return 0;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(a, x, y, M, K, s);
    case 1: return launch<__half>(a, x, y, M, K, s);
    case 2: return launch<__nv_bfloat16>(a, x, y, M, K, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
