// Python bindings for cuda2cuda/cumsum (pristine: not editable). The kernels and their
// launcher live in kernel.cu, which includes no torch header; this file checks the tensor,
// allocates the output and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// y[m, :] = inclusive prefix sum of x[m, :] for contiguous M x N matrices x and y of one
// dtype (0 float32, 1 float16, 2 bfloat16), accumulated in float32.
// Returns a cudaError_t (0: launched).
int aka_cumsum(const void* x, void* y, int64_t M, int64_t N, int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "cumsum: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor cumsum(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "cumsum: x must be on the GPU");
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous(), "cumsum: x must be a contiguous matrix");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty_like(x);
  if (y.numel() == 0) return y;
  const int status = aka_cumsum(x.data_ptr(), y.data_ptr(), x.size(0), x.size(1), dtype_code(x),
                                at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_cumsum failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("cumsum", &cumsum, "row-wise inclusive prefix sum of a matrix");
}
