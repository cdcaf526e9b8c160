// cuda2cuda/depthwise_conv2d, solution: shared-memory tiles with a halo, a column of outputs
// per thread with the filter in registers.
//
// Launcher contract as in the baseline (binding.cpp declares it):
//   extern "C" int aka_depthwise_conv2d(const void* x, const void* w, void* y, int64_t N,
//                                       int64_t C, int64_t H, int64_t W, int64_t K,
//                                       int dtype, void* stream);
//
// The baseline issues K * K global loads (plus K * K filter loads) per output: every input
// pixel goes through the load/store unit about 2 K^2 times, which bounds it well below the
// memory bandwidth for K = 5 and 7 and, for 16-bit data, K = 3 too. Here a block owns a
// TH x TW tile of one plane: it copies the tile plus its K - 1 halo (zeros outside the image)
// into shared memory as float32 once, keeps the plane's K x K filter in registers, and each
// thread computes ROWS vertically adjacent outputs of one column, walking the ROWS + K - 1
// shared rows once and adding each row into every output it touches: (ROWS + K - 1) * K
// shared loads for ROWS * K * K multiply-adds. Tile shapes follow the plane: 8, 16 or 32
// columns (small planes keep most threads busy), 2 or 8 rows per thread; when one tile covers
// a whole small plane (7 x 7, 14 x 14) a block takes several planes (blockDim.z), so that
// blocks keep 128 to 256 threads rather than 32. Blocks lie on a flat grid (plane group x tile
// row x tile column), so any N * C fits.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kMaxThreads = 256;
// The largest tile with its halo: TW = 8, 32 threads rows x 8 outputs, K = 7. Several planes
// per block only with 2 rows per thread and at most 256 threads, which need less.
constexpr int kTileFloats = (32 * 8 + 6) * (8 + 6);

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

// Block: blockDim.x = TW columns, blockDim.y thread rows of ROWS outputs each, blockDim.z
// planes (one tile each).
template <typename T, int K, int ROWS>
__global__ void __launch_bounds__(kMaxThreads)
    depthwise_tiles(const T* __restrict__ x, const T* __restrict__ w, T* __restrict__ y,
                    int64_t planes, int64_t C, int H, int W, int tiles_x, int tiles_y) {
  __shared__ float tiles[kTileFloats];
  constexpr int P = K / 2;
  const int TW = blockDim.x;
  const int TH = blockDim.y * ROWS;
  int64_t b = blockIdx.x;
  const int tile_x = static_cast<int>(b % tiles_x);
  b /= tiles_x;
  const int tile_y = static_cast<int>(b % tiles_y);
  // n * C + c; past the last plane: a clamped copy that loads but does not store.
  const int64_t wanted = (b / tiles_y) * blockDim.z + threadIdx.z;
  const bool valid = wanted < planes;
  const int64_t plane = valid ? wanted : planes - 1;
  const int64_t c = plane % C;
  const int h0 = tile_y * TH;
  const int w0 = tile_x * TW;
  const int64_t plane_size = static_cast<int64_t>(H) * W;
  const T* in = x + plane * plane_size;

  // The tile and its halo, rows h0 - P .. h0 + TH + P - 1, columns w0 - P .. w0 + TW + P - 1.
  const int pitch = TW + K - 1;
  const int count = (TH + K - 1) * pitch;
  float* tile = tiles + threadIdx.z * count;
  const int tid = threadIdx.y * TW + threadIdx.x;  // within this plane's slice of the block
  const int nthreads = TW * blockDim.y;
  for (int i = tid; i < count; i += nthreads) {
    const int h = h0 - P + i / pitch;
    const int v = w0 - P + i % pitch;
    tile[i] = (h >= 0 && h < H && v >= 0 && v < W)
                  ? to_float(in[static_cast<int64_t>(h) * W + v])
                  : 0.f;
  }
  float f[K * K];  // loaded while the tile loads are in flight
#pragma unroll
  for (int i = 0; i < K * K; ++i) f[i] = to_float(w[c * K * K + i]);
  __syncthreads();

  float acc[ROWS];
#pragma unroll
  for (int i = 0; i < ROWS; ++i) acc[i] = 0.f;
  const int r0 = threadIdx.y * ROWS;  // first output row of this thread, tile-local
  // Shared row r0 + j feeds output i through filter row j - i.
#pragma unroll
  for (int j = 0; j < ROWS + K - 1; ++j) {
    float v[K];
#pragma unroll
    for (int dx = 0; dx < K; ++dx) v[dx] = tile[(r0 + j) * pitch + threadIdx.x + dx];
#pragma unroll
    for (int i = 0; i < ROWS; ++i) {
      const int dy = j - i;
      if (dy >= 0 && dy < K) {
#pragma unroll
        for (int dx = 0; dx < K; ++dx) acc[i] += v[dx] * f[dy * K + dx];
      }
    }
  }
  const int col = w0 + threadIdx.x;
  if (valid && col < W) {
    T* out = y + plane * plane_size + col;
#pragma unroll
    for (int i = 0; i < ROWS; ++i) {
      const int h = h0 + r0 + i;
      if (h < H) out[static_cast<int64_t>(h) * W] = from_float<T>(acc[i]);
    }
  }
}

template <typename T, int K, int ROWS>
int launch_tiles(const T* x, const T* w, T* y, int64_t planes, int64_t C, int H, int W,
                 cudaStream_t stream) {
  const int tw = W <= 8 ? 8 : W <= 16 ? 16 : 32;
  int thread_rows = (H + ROWS - 1) / ROWS;
  if (thread_rows > kMaxThreads / tw) thread_rows = kMaxThreads / tw;
  const int th = thread_rows * ROWS;
  const int tiles_x = (W + tw - 1) / tw;
  const int tiles_y = (H + th - 1) / th;
  // Planes per block: fill up to 128 threads when a single tile is small (small planes).
  int depth = 1;
  while (depth < 64 && tw * thread_rows * depth * 2 <= 128) depth *= 2;
  if (static_cast<int64_t>(depth) * (th + K - 1) * (tw + K - 1) > kTileFloats) depth = 1;
  const int64_t groups = (planes + depth - 1) / depth;
  const int64_t blocks = groups * tiles_x * tiles_y;
  if (blocks > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
  const dim3 block(static_cast<unsigned>(tw), static_cast<unsigned>(thread_rows),
                   static_cast<unsigned>(depth));
  depthwise_tiles<T, K, ROWS><<<static_cast<unsigned>(blocks), block, 0, stream>>>(
      x, w, y, planes, C, H, W, tiles_x, tiles_y);
  return static_cast<int>(cudaGetLastError());
}

template <typename T, int K>
int launch_k(const T* x, const T* w, T* y, int64_t planes, int64_t C, int H, int W,
             cudaStream_t stream) {
  // Tall planes: 8 outputs per thread (fewer shared loads per output); short ones: 2, so
  // that a 7 x 7 plane still gets 32 threads rather than 8.
  return H >= 32 ? launch_tiles<T, K, 8>(x, w, y, planes, C, H, W, stream)
                 : launch_tiles<T, K, 2>(x, w, y, planes, C, H, W, stream);
}

template <typename T>
int launch(const void* xv, const void* wv, void* yv, int64_t N, int64_t C, int64_t H, int64_t W,
           int64_t K, cudaStream_t stream) {
  if (H > 2147483647LL || W > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
  const T* x = static_cast<const T*>(xv);
  const T* w = static_cast<const T*>(wv);
  T* y = static_cast<T*>(yv);
  const int h = static_cast<int>(H), v = static_cast<int>(W);
  switch (K) {
    case 3: return launch_k<T, 3>(x, w, y, N * C, C, h, v, stream);
    case 5: return launch_k<T, 5>(x, w, y, N * C, C, h, v, stream);
    case 7: return launch_k<T, 7>(x, w, y, N * C, C, h, v, stream);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}

}  // namespace

extern "C" int aka_depthwise_conv2d(const void* x, const void* w, void* y, int64_t N, int64_t C,
                                    int64_t H, int64_t W, int64_t K, int dtype, void* stream) {
  if (N <= 0 || C <= 0 || H <= 0 || W <= 0) return 0;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, w, y, N, C, H, W, K, s);
    case 1: return launch<__half>(x, w, y, N, C, H, W, K, s);
    case 2: return launch<__nv_bfloat16>(x, w, y, N, C, H, W, K, s);
    default: return static_cast<int>(cudaErrorInvalidValue);
  }
}
