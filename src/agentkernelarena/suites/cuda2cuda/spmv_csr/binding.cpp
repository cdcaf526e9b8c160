// Python bindings for cuda2cuda/spmv_csr (pristine: not editable). The kernels and their
// launcher live in kernel.cu, which includes no torch header; this file checks the tensors,
// allocates the output and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// y = A @ x for a CSR matrix A of M rows (row_ptr: M + 1 int32 offsets, col_idx: nnz int32
// columns in [0, N), values: nnz float32), a float32 vector x of N and y of M.
// Returns a cudaError_t (0: launched).
int aka_spmv_csr(const void* row_ptr, const void* col_idx, const void* values, const void* x,
                 void* y, int64_t M, int64_t N, int64_t nnz, void* stream);
}

torch::Tensor spmv_csr(torch::Tensor row_ptr, torch::Tensor col_idx, torch::Tensor values,
                       torch::Tensor x) {
  TORCH_CHECK(row_ptr.is_cuda() && col_idx.is_cuda() && values.is_cuda() && x.is_cuda(),
              "spmv_csr: all tensors must be on the GPU");
  TORCH_CHECK(row_ptr.device() == x.device() && col_idx.device() == x.device() &&
                  values.device() == x.device(),
              "spmv_csr: all tensors must be on one device");
  TORCH_CHECK(row_ptr.scalar_type() == torch::kInt32 && col_idx.scalar_type() == torch::kInt32,
              "spmv_csr: row_ptr and col_idx must be int32");
  TORCH_CHECK(values.scalar_type() == torch::kFloat32 && x.scalar_type() == torch::kFloat32,
              "spmv_csr: values and x must be float32");
  TORCH_CHECK(row_ptr.dim() == 1 && col_idx.dim() == 1 && values.dim() == 1 && x.dim() == 1,
              "spmv_csr: all tensors must be vectors");
  TORCH_CHECK(row_ptr.is_contiguous() && col_idx.is_contiguous() && values.is_contiguous() &&
                  x.is_contiguous(),
              "spmv_csr: all tensors must be contiguous");
  TORCH_CHECK(row_ptr.size(0) >= 1 && col_idx.size(0) == values.size(0),
              "spmv_csr: row_ptr needs M + 1 entries, col_idx and values nnz each");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  const int64_t M = row_ptr.size(0) - 1;
  auto y = torch::empty({M}, x.options());
  if (M == 0) return y;
  if (values.size(0) == 0) return y.zero_();
  const int status = aka_spmv_csr(row_ptr.data_ptr(), col_idx.data_ptr(), values.data_ptr(),
                                  x.data_ptr(), y.data_ptr(), M, x.size(0), values.size(0),
                                  at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_spmv_csr failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("spmv_csr", &spmv_csr, "sparse CSR matrix times dense vector");
}
