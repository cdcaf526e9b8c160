// A CUDA/HIP emulator for the CPU, for tests only: runs a task's kernel source (compiled as
// C++20 by g++) so that its results can be checked without a GPU.
//
// Every CUDA thread is a std::thread; the blocks of a grid run one after another, so a
// `__shared__` variable (a function-local static here) is per block, as on a GPU.
// __syncthreads is a block barrier; warp shuffles exchange through a per-warp slot array
// between two warp barriers; a thread that returns leaves both barriers. The warp size is
// set per library (32 or 64), which is how wavefront-64 code paths get exercised. Launch
// configurations are checked against the CUDA limits; an invalid one becomes the error that
// cudaGetLastError/hipGetLastError returns. Not emulated: the memory model beyond barriers,
// dynamic shared memory, textures, cooperative groups, timing.
#pragma once

#include <algorithm>
#include <atomic>
#include <barrier>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};
using uint3 = dim3;

namespace aka_emu {
inline int warp_size = 32;
inline int sm_count = 2;
inline int last_error = 0;

struct Warp {
  explicit Warp(std::ptrdiff_t lanes) : bar(lanes), slots(64) {}
  std::barrier<> bar;
  std::vector<std::uint64_t> slots;
};
struct Block {
  explicit Block(std::ptrdiff_t threads) : bar(threads) {}
  std::barrier<> bar;
  std::vector<std::unique_ptr<Warp>> warps;
};
inline thread_local dim3 tid, bid;
inline dim3 bdim, gdim;
inline thread_local Block* block = nullptr;
inline thread_local int lane = 0, warp_index = 0;

template <class T>
T shuffle(T v, int src) {
  static_assert(sizeof(T) <= 8, "shuffle of a type wider than 8 bytes");
  Warp& w = *block->warps[warp_index];
  std::uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  w.slots[lane] = bits;
  w.bar.arrive_and_wait();
  T out;
  bits = w.slots[src];
  std::memcpy(&out, &bits, sizeof(T));
  w.bar.arrive_and_wait();
  return out;
}

template <class K, class... A>
void launch(K kernel, dim3 grid, dim3 blk, std::size_t shmem, const void* stream, A... args) {
  (void)stream;
  const unsigned long long threads = 1ull * blk.x * blk.y * blk.z;
  if (threads == 0 || threads > 1024 || blk.z > 64 || grid.x == 0 || grid.y == 0 ||
      grid.z == 0 || grid.y > 65535 || grid.z > 65535 || grid.x > 2147483647u ||
      shmem > 48 * 1024) {
    last_error = 9;  // cudaErrorInvalidConfiguration
    return;
  }
  gdim = grid;
  bdim = blk;
  const int nthreads = static_cast<int>(threads);
  const int nwarps = (nthreads + warp_size - 1) / warp_size;
  for (unsigned bz = 0; bz < grid.z; ++bz)
    for (unsigned by = 0; by < grid.y; ++by)
      for (unsigned bx = 0; bx < grid.x; ++bx) {
        Block b(nthreads);
        for (int w = 0; w < nwarps; ++w) {
          const int lanes = std::min(warp_size, nthreads - w * warp_size);
          b.warps.push_back(std::make_unique<Warp>(lanes));
        }
        std::vector<std::thread> pool;
        pool.reserve(nthreads);
        for (int t = 0; t < nthreads; ++t) {
          pool.emplace_back([&, t] {
            tid = dim3(t % blk.x, (t / blk.x) % blk.y, t / (blk.x * blk.y));
            bid = dim3(bx, by, bz);
            block = &b;
            lane = t % warp_size;
            warp_index = t / warp_size;
            kernel(args...);
            b.warps[warp_index]->bar.arrive_and_drop();
            b.bar.arrive_and_drop();
          });
        }
        for (auto& th : pool) th.join();
      }
}
}  // namespace aka_emu

extern "C" __attribute__((used, visibility("default"))) void aka_emu_configure(int warp, int sms) {
  aka_emu::warp_size = warp;
  aka_emu::sm_count = sms;
}

// --- the language ---------------------------------------------------------------------------
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __shared__ static
#define __constant__
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
#define threadIdx (aka_emu::tid)
#define blockIdx (aka_emu::bid)
#define blockDim (aka_emu::bdim)
#define gridDim (aka_emu::gdim)
#define warpSize (aka_emu::warp_size)
#define hipThreadIdx_x (aka_emu::tid.x)
#define hipThreadIdx_y (aka_emu::tid.y)
#define hipBlockIdx_x (aka_emu::bid.x)
#define hipBlockIdx_y (aka_emu::bid.y)
#define hipBlockDim_x (aka_emu::bdim.x)
#define hipBlockDim_y (aka_emu::bdim.y)
#define hipGridDim_x (aka_emu::gdim.x)
#define hipGridDim_y (aka_emu::gdim.y)
#define hipLaunchKernelGGL(kernel, grid, blk, shmem, stream, ...) \
  aka_emu::launch(kernel, dim3(grid), dim3(blk), shmem, stream, ##__VA_ARGS__)
#define HIP_KERNEL_NAME(...) __VA_ARGS__

inline void __syncthreads() { aka_emu::block->bar.arrive_and_wait(); }
inline void __syncwarp(unsigned = 0xffffffffu) {
  aka_emu::block->warps[aka_emu::warp_index]->bar.arrive_and_wait();
}
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }

template <class T>
T __shfl_down(T v, unsigned delta, int width = aka_emu::warp_size) {
  const int seg = aka_emu::lane % width;
  return aka_emu::shuffle(v, seg + static_cast<int>(delta) < width ? aka_emu::lane + delta
                                                                   : aka_emu::lane);
}
template <class T>
T __shfl_up(T v, unsigned delta, int width = aka_emu::warp_size) {
  const int seg = aka_emu::lane % width;
  return aka_emu::shuffle(v, seg >= static_cast<int>(delta) ? aka_emu::lane - delta
                                                            : aka_emu::lane);
}
template <class T>
T __shfl_xor(T v, int mask, int width = aka_emu::warp_size) {
  const int src = aka_emu::lane ^ mask;
  const bool same = src / width == aka_emu::lane / width;
  return aka_emu::shuffle(v, same ? src : aka_emu::lane);
}
template <class T>
T __shfl(T v, int src, int width = aka_emu::warp_size) {
  return aka_emu::shuffle(v, (aka_emu::lane / width) * width + ((src % width) + width) % width);
}
template <class T>
T __shfl_down_sync(unsigned, T v, unsigned delta, int width = aka_emu::warp_size) {
  return __shfl_down(v, delta, width);
}
template <class T>
T __shfl_up_sync(unsigned, T v, unsigned delta, int width = aka_emu::warp_size) {
  return __shfl_up(v, delta, width);
}
template <class T>
T __shfl_xor_sync(unsigned, T v, int mask, int width = aka_emu::warp_size) {
  return __shfl_xor(v, mask, width);
}
template <class T>
T __shfl_sync(unsigned, T v, int src, int width = aka_emu::warp_size) {
  return __shfl(v, src, width);
}

inline float atomicAdd(float* p, float v) { return std::atomic_ref<float>(*p).fetch_add(v); }
inline double atomicAdd(double* p, double v) { return std::atomic_ref<double>(*p).fetch_add(v); }
inline int atomicAdd(int* p, int v) { return std::atomic_ref<int>(*p).fetch_add(v); }
inline unsigned atomicAdd(unsigned* p, unsigned v) {
  return std::atomic_ref<unsigned>(*p).fetch_add(v);
}

// --- math and bit casts -----------------------------------------------------------------------
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline float __expf(float x) { return std::exp(x); }
inline float __logf(float x) { return std::log(x); }
inline float __fdividef(float a, float b) { return a / b; }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __fsqrt_rn(float x) { return std::sqrt(x); }
inline float __saturatef(float x) { return std::min(1.0f, std::max(0.0f, x)); }
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline float __uint_as_float(unsigned u) { float f; std::memcpy(&f, &u, 4); return f; }
inline unsigned __float_as_uint(float f) { unsigned u; std::memcpy(&u, &f, 4); return u; }
inline float __int_as_float(int u) { float f; std::memcpy(&f, &u, 4); return f; }
inline int __float_as_int(float f) { int u; std::memcpy(&u, &f, 4); return u; }
template <class T>
T __ldg(const T* p) { return *p; }
inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline long long max(long long a, long long b) { return a > b ? a : b; }
inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }

// --- vector types -----------------------------------------------------------------------------
struct alignas(8) float2 { float x, y; };
struct alignas(16) float4 { float x, y, z, w; };
struct alignas(8) uint2 { unsigned x, y; };
struct alignas(16) uint4 { unsigned x, y, z, w; };
struct alignas(16) int4 { int x, y, z, w; };
struct alignas(8) ushort4 { unsigned short x, y, z, w; };
inline float2 make_float2(float x, float y) { return {x, y}; }
inline float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }
inline uint2 make_uint2(unsigned x, unsigned y) { return {x, y}; }
inline uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) { return {x, y, z, w}; }

// --- half and bfloat16 (no implicit conversions, as under torch's __CUDA_NO_HALF_* flags) -----
struct alignas(2) __half { std::uint16_t bits; };
struct alignas(2) __nv_bfloat16 { std::uint16_t bits; };
inline float __half2float(__half h) {
  _Float16 v;
  std::memcpy(&v, &h.bits, 2);
  return static_cast<float>(v);
}
inline __half __float2half(float f) {
  const _Float16 v = static_cast<_Float16>(f);
  __half h;
  std::memcpy(&h.bits, &v, 2);
  return h;
}
inline __half __float2half_rn(float f) { return __float2half(f); }
inline float __bfloat162float(__nv_bfloat16 b) { return __uint_as_float(unsigned(b.bits) << 16); }
inline __nv_bfloat16 __float2bfloat16_rn(float f) {
  unsigned u = __float_as_uint(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return {static_cast<std::uint16_t>((u >> 16) | 0x40)};
  u += 0x7fffu + ((u >> 16) & 1u);
  return {static_cast<std::uint16_t>(u >> 16)};
}
inline __nv_bfloat16 __float2bfloat16(float f) { return __float2bfloat16_rn(f); }

// --- runtime API --------------------------------------------------------------------------
struct CUstream_st;
using cudaStream_t = CUstream_st*;
using hipStream_t = CUstream_st*;
enum cudaError_t { cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorInvalidConfiguration = 9 };
enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1, hipErrorInvalidConfiguration = 9 };
enum cudaDeviceAttr { cudaDevAttrWarpSize = 10, cudaDevAttrMultiProcessorCount = 16 };
enum hipDeviceAttribute_t {
  hipDeviceAttributeWarpSize = 10,
  hipDeviceAttributeMultiprocessorCount = 16
};
inline cudaError_t cudaGetLastError() {
  const int e = aka_emu::last_error;
  aka_emu::last_error = 0;
  return static_cast<cudaError_t>(e);
}
inline hipError_t hipGetLastError() { return static_cast<hipError_t>(cudaGetLastError()); }
inline cudaError_t cudaGetDevice(int* d) { *d = 0; return cudaSuccess; }
inline hipError_t hipGetDevice(int* d) { *d = 0; return hipSuccess; }
inline int aka_emu_attribute(int attr) {
  return attr == 10 ? aka_emu::warp_size : attr == 16 ? aka_emu::sm_count : 0;
}
inline cudaError_t cudaDeviceGetAttribute(int* v, cudaDeviceAttr a, int) {
  *v = aka_emu_attribute(a);
  return cudaSuccess;
}
inline hipError_t hipDeviceGetAttribute(int* v, hipDeviceAttribute_t a, int) {
  *v = aka_emu_attribute(a);
  return hipSuccess;
}
