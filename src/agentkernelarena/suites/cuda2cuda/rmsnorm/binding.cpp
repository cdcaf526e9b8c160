// Python bindings for cuda2cuda/rmsnorm (pristine: not editable). The kernels and their
// launcher live in kernel.cu, which includes no torch header; this file checks the tensors,
// allocates the output and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// y[m, n] = x[m, n] / sqrt(mean_n(x[m, :]^2) + eps) * w[n] for a contiguous row-major M x N
// matrix x, a weight vector w of N and y like x, all of one dtype (0 float32, 1 float16,
// 2 bfloat16), in float32 arithmetic. Returns a cudaError_t (0: launched).
int aka_rmsnorm(const void* x, const void* w, void* y, int64_t M, int64_t N, float eps,
                int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "rmsnorm: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor rmsnorm(torch::Tensor x, torch::Tensor w, double eps) {
  TORCH_CHECK(x.is_cuda() && w.is_cuda() && x.device() == w.device(),
              "rmsnorm: x and w must be on one GPU");
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous(), "rmsnorm: x must be a contiguous matrix");
  TORCH_CHECK(w.dim() == 1 && w.is_contiguous() && w.size(0) == x.size(1),
              "rmsnorm: w must be a contiguous vector of x.size(1) elements");
  TORCH_CHECK(w.scalar_type() == x.scalar_type(), "rmsnorm: x and w must have one dtype");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty_like(x);
  if (y.numel() == 0) return y;
  const int status = aka_rmsnorm(x.data_ptr(), w.data_ptr(), y.data_ptr(), x.size(0),
                                 x.size(1), static_cast<float>(eps), dtype_code(x),
                                 at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_rmsnorm failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("rmsnorm", &rmsnorm, "RMS normalization of the rows of a matrix, with a weight");
}
