// hip2hip/logsumexp, solution: one read of each row, an online (max, sum) per thread, and
// wavefront shuffles instead of shared-memory trees.
//
// Launcher contract as in the baseline (binding.cpp declares it):
//   extern "C" int aka_logsumexp_forward(const void* x, void* out, int64_t M, int64_t N,
//                                        int dtype, void* stream);
//
// Each thread keeps a running maximum m and a sum s of exp(x - m), updated once per 16-byte
// pack (a pack max, one rescale, one exp per element). Pairs (m, s) are combined across the
// wavefront with __shfl_xor over warpSize lanes (64 on AMD CDNA, 32 on NVIDIA after
// translation), then across wavefronts through shared memory. Rows up to 4096 elements get
// one wavefront each; longer rows one block each (1024 threads when there are few rows).
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdint>

namespace {

constexpr int kWaveRowsThreads = 256;  // block size of the wavefront-per-row kernel
constexpr int kMaxPartials = 64;       // per-wavefront partials: 1024 threads / >= 16 lanes
constexpr int64_t kWaveRowMax = 4096;  // longest row handled by a single wavefront

struct alignas(2) bf16_t {
  unsigned short bits;
};

__device__ __forceinline__ float to_float(float v) { return v; }
__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_float(bf16_t v) {
  return __uint_as_float(static_cast<unsigned>(v.bits) << 16);
}

template <typename T, int VEC>
struct alignas(sizeof(T) * VEC) Pack {
  T v[VEC];
};

// Fold VEC values into the running (m, s).
template <int VEC>
__device__ __forceinline__ void add_values(float& m, float& s, const float (&v)[VEC]) {
  float pm = v[0];
#pragma unroll
  for (int k = 1; k < VEC; ++k) pm = fmaxf(pm, v[k]);
  if (pm == -INFINITY) return;
  const float nm = fmaxf(m, pm);
  float acc = (m == -INFINITY) ? 0.f : s * __expf(m - nm);
#pragma unroll
  for (int k = 0; k < VEC; ++k) acc += __expf(v[k] - nm);
  m = nm;
  s = acc;
}

__device__ __forceinline__ void combine(float& m, float& s, float om, float os) {
  const float nm = fmaxf(m, om);
  if (nm == -INFINITY) return;
  s = (m == -INFINITY ? 0.f : s * __expf(m - nm)) + (om == -INFINITY ? 0.f : os * __expf(om - nm));
  m = nm;
}

// Combine (m, s) over the wavefront; every lane gets the result.
__device__ __forceinline__ void wave_combine(float& m, float& s) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) {
    const float om = __shfl_xor(m, offset);
    const float os = __shfl_xor(s, offset);
    combine(m, s, om, os);
  }
}

// Running (m, s) over elements first, first + stride, ... of a row, in packs of VEC.
template <typename T, int VEC>
__device__ __forceinline__ void scan_row(const T* row, int64_t N, int64_t first, int64_t stride,
                                         float& m, float& s) {
  for (int64_t p = first; p < N / VEC; p += stride) {
    const Pack<T, VEC> pack = reinterpret_cast<const Pack<T, VEC>*>(row)[p];
    float v[VEC];
#pragma unroll
    for (int k = 0; k < VEC; ++k) v[k] = to_float(pack.v[k]);
    add_values<VEC>(m, s, v);
  }
}

template <typename T, int VEC>
__global__ void lse_wave_rows(const T* __restrict__ x, float* __restrict__ out, int64_t M,
                              int64_t N) {
  const int lane = threadIdx.x % warpSize;
  const int64_t row =
      static_cast<int64_t>(blockIdx.x) * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  if (row >= M) return;  // the whole wavefront leaves together
  float m = -INFINITY, s = 0.f;
  scan_row<T, VEC>(x + row * N, N, lane, warpSize, m, s);
  wave_combine(m, s);
  if (lane == 0) out[row] = m + logf(s);
}

template <typename T, int VEC>
__global__ void lse_block_rows(const T* __restrict__ x, float* __restrict__ out, int64_t N) {
  __shared__ float part_m[kMaxPartials];
  __shared__ float part_s[kMaxPartials];
  float m = -INFINITY, s = 0.f;
  scan_row<T, VEC>(x + static_cast<int64_t>(blockIdx.x) * N, N, threadIdx.x, blockDim.x, m, s);
  wave_combine(m, s);
  const int lane = threadIdx.x % warpSize;
  const int wave = threadIdx.x / warpSize;
  if (lane == 0) {
    part_m[wave] = m;
    part_s[wave] = s;
  }
  __syncthreads();
  if (wave == 0) {
    const int waves = (blockDim.x + warpSize - 1) / warpSize;
    m = lane < waves ? part_m[lane] : -INFINITY;
    s = lane < waves ? part_s[lane] : 0.f;
    wave_combine(m, s);
    if (lane == 0) out[blockIdx.x] = m + logf(s);
  }
}

template <typename T, int VEC>
int launch_vec(const T* x, float* out, int64_t M, int64_t N, int wave, int cus,
               hipStream_t stream) {
  if (N <= kWaveRowMax) {
    const int rows_per_block = kWaveRowsThreads / wave;
    const int64_t blocks = (M + rows_per_block - 1) / rows_per_block;
    if (blocks > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
    hipLaunchKernelGGL(HIP_KERNEL_NAME(lse_wave_rows<T, VEC>), dim3(static_cast<unsigned>(blocks)),
                       dim3(kWaveRowsThreads), 0, stream, x, out, M, N);
    return static_cast<int>(hipGetLastError());
  }
  if (M > 2147483647LL) return static_cast<int>(hipErrorInvalidValue);
  const int threads = M >= 4LL * cus ? 256 : 1024;
  hipLaunchKernelGGL(HIP_KERNEL_NAME(lse_block_rows<T, VEC>), dim3(static_cast<unsigned>(M)),
                     dim3(threads), 0, stream, x, out, N);
  return static_cast<int>(hipGetLastError());
}

template <typename T>
int launch(const void* xv, void* outv, int64_t M, int64_t N, hipStream_t stream) {
  int device = 0, wave = 0, cus = 0;
  hipError_t err = hipGetDevice(&device);
  if (err == hipSuccess) err = hipDeviceGetAttribute(&wave, hipDeviceAttributeWarpSize, device);
  if (err == hipSuccess) {
    err = hipDeviceGetAttribute(&cus, hipDeviceAttributeMultiprocessorCount, device);
  }
  if (err != hipSuccess) return static_cast<int>(err);
  if (wave <= 0 || cus <= 0) return static_cast<int>(hipErrorInvalidValue);
  const T* x = static_cast<const T*>(xv);
  float* out = static_cast<float*>(outv);
  constexpr int kVec = 16 / static_cast<int>(sizeof(T));
  if (N % kVec == 0 && reinterpret_cast<uintptr_t>(x) % 16 == 0) {
    return launch_vec<T, kVec>(x, out, M, N, wave, cus, stream);
  }
  return launch_vec<T, 1>(x, out, M, N, wave, cus, stream);
}

}  // namespace

extern "C" int aka_logsumexp_forward(const void* x, void* out, int64_t M, int64_t N, int dtype,
                                     void* stream) {
  if (M <= 0 || N <= 0) return 0;
  hipStream_t s = static_cast<hipStream_t>(stream);
  switch (dtype) {
    case 0: return launch<float>(x, out, M, N, s);
    case 1: return launch<__half>(x, out, M, N, s);
    case 2: return launch<bf16_t>(x, out, M, N, s);
    default: return static_cast<int>(hipErrorInvalidValue);
  }
}
