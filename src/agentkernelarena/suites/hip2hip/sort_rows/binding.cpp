// Python bindings for hip2hip/sort_rows (pristine: not editable). The kernels and their
// launcher live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA
// API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the
// arena translates kernel.hip to CUDA. Checks the tensor, allocates the outputs, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

#include <tuple>

extern "C" {
// Sorts every row of a contiguous float32 M x N matrix x ascending: values[m, :] the sorted
// row (float32), indices[m, :] the int64 positions in x's row they came from. N <= 4096.
// Returns a hipError_t (0: launched).
int aka_sort_rows(const void* x, void* values, void* indices, int64_t M, int64_t N,
                  void* stream);
}

std::tuple<torch::Tensor, torch::Tensor> sort_rows(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "sort_rows: x must be on the GPU");
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous(), "sort_rows: x must be a contiguous matrix");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "sort_rows: x must be float32");
  TORCH_CHECK(x.size(1) <= 4096, "sort_rows: rows of at most 4096 elements");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto values = torch::empty_like(x);
  auto indices = torch::empty(x.sizes(), x.options().dtype(torch::kInt64));
  if (x.numel() == 0) return {values, indices};
  const int status = aka_sort_rows(x.data_ptr(), values.data_ptr(), indices.data_ptr(),
                                   x.size(0), x.size(1),
                                   at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_sort_rows failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return {values, indices};
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("sort_rows", &sort_rows, "ascending sort of every row: values and int64 indices");
}
