// Python bindings for cuda2cuda/transpose_2d (pristine: not editable). The kernels and their
// launcher live in kernel.cu, which includes no torch header; this file checks the tensor,
// allocates the output and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// y = x.T for a contiguous row-major M x N matrix x and the contiguous N x M matrix y, with
// elements of `elem_size` bytes (4 for float32, 2 for float16). Returns a cudaError_t.
int aka_transpose_2d(const void* x, void* y, int64_t M, int64_t N, int elem_size, void* stream);
}

torch::Tensor transpose_2d(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "transpose_2d: x must be on the GPU");
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous(), "transpose_2d: x must be a contiguous matrix");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32 || x.scalar_type() == torch::kFloat16,
              "transpose_2d: x must be float32 or float16");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty({x.size(1), x.size(0)}, x.options());
  if (y.numel() == 0) return y;
  const int status = aka_transpose_2d(x.data_ptr(), y.data_ptr(), x.size(0), x.size(1),
                                      static_cast<int>(x.element_size()),
                                      at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_transpose_2d failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("transpose_2d", &transpose_2d, "out-of-place transpose of a row-major matrix");
}
