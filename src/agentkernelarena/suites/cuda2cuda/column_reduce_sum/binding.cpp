// Python bindings for cuda2cuda/column_reduce_sum (pristine: not editable). The kernels and
// their launcher live in kernel.cu, which includes no torch header; this file checks the
// tensor, allocates the output and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// y[n] = sum_m x[m, n] for a contiguous row-major float32 M x N matrix x and a float32
// vector y of N (every element of y is written by the launcher's kernels).
// Returns a cudaError_t (0: launched).
int aka_column_reduce_sum(const void* x, void* y, int64_t M, int64_t N, void* stream);
}

torch::Tensor column_reduce_sum(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "column_reduce_sum: x must be on the GPU");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "column_reduce_sum: x must be float32");
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous(),
              "column_reduce_sum: x must be a contiguous matrix");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty({x.size(1)}, x.options());
  if (y.numel() == 0) return y;
  if (x.size(0) == 0) return y.zero_();
  const int status = aka_column_reduce_sum(x.data_ptr(), y.data_ptr(), x.size(0), x.size(1),
                                           at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_column_reduce_sum failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("column_reduce_sum", &column_reduce_sum, "sums of the columns of a matrix");
}
