// cuda2cuda/spmv_csr: y[m] = sum_{j in [row_ptr[m], row_ptr[m+1])} values[j] * x[col_idx[j]],
// a sparse CSR matrix (M rows, N columns, nnz stored entries) times a dense float32 vector.
//
// The contract with binding.cpp (not editable): keep the launcher's name and signature.
//   extern "C" int aka_spmv_csr(const void* row_ptr, const void* col_idx, const void* values,
//                               const void* x, void* y, int64_t M, int64_t N, int64_t nnz,
//                               void* stream);
// row_ptr: M + 1 int32 offsets (row_ptr[0] = 0, row_ptr[M] = nnz, non-decreasing); col_idx:
// nnz int32 columns in [0, N), in no particular order; values and x float32; y float32 of M.
// Rows are irregular (empty rows, rows many times the mean length). Launch on `stream` (a
// cudaStream_t) and return cudaGetLastError(). This file must not include torch headers.
//
// Baseline: scalar CSR, one thread per row walking its entries; float32 accumulation.
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;

__global__ void spmv_scalar(const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                            const float* __restrict__ values, const float* __restrict__ x,
                            float* __restrict__ y, int64_t M) {
  const int64_t row = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= M) return;
  float acc = 0.f;
  for (int j = row_ptr[row]; j < row_ptr[row + 1]; ++j) acc += values[j] * x[col_idx[j]];
  y[row] = acc;
}

}  // namespace

extern "C" int aka_spmv_csr(const void* row_ptr, const void* col_idx, const void* values,
                            const void* x, void* y, int64_t M, int64_t N, int64_t nnz,
                            void* stream) {
  (void)N;
  if (M <= 0) return 0;
  if (nnz > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
  const int64_t blocks = (M + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL) return static_cast<int>(cudaErrorInvalidValue);
  spmv_scalar<<<static_cast<unsigned>(blocks), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(
      static_cast<const int*>(row_ptr), static_cast<const int*>(col_idx),
      static_cast<const float*>(values), static_cast<const float*>(x), static_cast<float*>(y),
      M);
  return static_cast<int>(cudaGetLastError());
}
