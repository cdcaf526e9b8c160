// Python bindings for hip2hip/transpose (pristine: not editable). The kernels and their
// launcher live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA
// API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the
// arena translates kernel.hip to CUDA. Checks the tensor, allocates the output, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// y (N x M) = transpose of x (M x N), both contiguous row-major, elements of elem_bytes bytes
// (2 or 4; the values are copied bit for bit). Returns a hipError_t (0: launched).
int aka_transpose(const void* x, void* y, int64_t M, int64_t N, int elem_bytes, void* stream);
}

torch::Tensor transpose(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "transpose: x must be on the GPU");
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous(), "transpose: x must be a contiguous matrix");
  const auto elem = static_cast<int>(x.element_size());
  TORCH_CHECK(elem == 2 || elem == 4, "transpose: 2- or 4-byte elements only");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty({x.size(1), x.size(0)}, x.options());
  if (y.numel() == 0) return y;
  const int status = aka_transpose(x.data_ptr(), y.data_ptr(), x.size(0), x.size(1), elem,
                                   at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_transpose failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("transpose", &transpose, "contiguous transpose of a matrix");
}
