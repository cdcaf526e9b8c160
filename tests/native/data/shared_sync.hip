// A tiled transpose in static shared memory and a sum in dynamic shared memory, with the host
// side a HIP program has: allocation, copies, events, device properties, synchronization.
#include <hip/hip_runtime.h>
#include <cstdio>

#define HIP_CHECK(cmd)                                                              \
  do {                                                                              \
    hipError_t e = (cmd);                                                           \
    if (e != hipSuccess) {                                                          \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, hipGetErrorString(e)); \
      return e;                                                                     \
    }                                                                               \
  } while (0)

constexpr int TILE = 32;
constexpr int ROWS_PER_PASS = 8;

__global__ void transpose(const float* __restrict__ in, float* __restrict__ out, int rows,
                          int cols) {
  __shared__ float tile[TILE][TILE + 1];
  int x = hipBlockIdx_x * TILE + hipThreadIdx_x;
  int y = hipBlockIdx_y * TILE + hipThreadIdx_y;
  for (int j = 0; j < TILE; j += ROWS_PER_PASS) {
    if (x < cols && y + j < rows) tile[hipThreadIdx_y + j][hipThreadIdx_x] = in[(y + j) * cols + x];
  }
  __syncthreads();
  x = hipBlockIdx_y * TILE + hipThreadIdx_x;
  y = hipBlockIdx_x * TILE + hipThreadIdx_y;
  for (int j = 0; j < TILE; j += ROWS_PER_PASS) {
    if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[hipThreadIdx_x][hipThreadIdx_y + j];
  }
}

__global__ void dynamic_sum(const float* __restrict__ in, float* __restrict__ out, int n) {
  HIP_DYNAMIC_SHARED(float, buf)
  float v = 0.f;
  for (int i = hipThreadIdx_x; i < n; i += hipBlockDim_x) v += in[i];
  buf[hipThreadIdx_x] = v;
  __syncthreads();
  for (int s = hipBlockDim_x / 2; s > 0; s >>= 1) {
    if (hipThreadIdx_x < s) buf[hipThreadIdx_x] += buf[hipThreadIdx_x + s];
    __syncthreads();
  }
  if (hipThreadIdx_x == 0) *out = buf[0];
}

hipError_t run(int rows, int cols, float* host_out, float* elapsed_ms) {
  const size_t bytes = sizeof(float) * rows * cols;
  float *d_in = nullptr, *d_out = nullptr, *d_sum = nullptr;
  hipDeviceProp_t prop;
  HIP_CHECK(hipGetDeviceProperties(&prop, 0));
  std::printf("%s: %d CUs, warp %d\n", prop.name, prop.multiProcessorCount, prop.warpSize);
  HIP_CHECK(hipMalloc(&d_in, bytes));
  HIP_CHECK(hipMalloc(&d_out, bytes));
  HIP_CHECK(hipMalloc(reinterpret_cast<void**>(&d_sum), sizeof(float)));
  HIP_CHECK(hipMemset(d_in, 0, bytes));
  hipEvent_t start, stop;
  HIP_CHECK(hipEventCreate(&start));
  HIP_CHECK(hipEventCreate(&stop));
  hipStream_t stream;
  HIP_CHECK(hipStreamCreate(&stream));
  HIP_CHECK(hipEventRecord(start, stream));
  hipLaunchKernelGGL(transpose, dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE),
                     dim3(TILE, ROWS_PER_PASS), 0, stream, d_in, d_out, rows, cols);
  hipLaunchKernelGGL(dynamic_sum, dim3(1), dim3(256), 256 * sizeof(float), stream,
                     d_out, d_sum, rows * cols);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipEventRecord(stop, stream));
  HIP_CHECK(hipEventSynchronize(stop));
  HIP_CHECK(hipEventElapsedTime(elapsed_ms, start, stop));
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipMemcpy(host_out, d_out, bytes, hipMemcpyDeviceToHost));
  HIP_CHECK(hipStreamDestroy(stream));
  HIP_CHECK(hipEventDestroy(start));
  HIP_CHECK(hipEventDestroy(stop));
  HIP_CHECK(hipFree(d_in));
  HIP_CHECK(hipFree(d_out));
  HIP_CHECK(hipFree(d_sum));
  return hipSuccess;
}
