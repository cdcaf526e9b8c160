// Python bindings for torch2cuda/bias_gelu_residual (pristine: not editable). The kernels and
// their launcher live in kernel.cu, which includes no torch header; this file checks the
// tensors, allocates the output and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// y[m, n] = residual[m, n] + gelu_tanh(x[m, n] + b[n]) for contiguous M x N matrices x and
// residual, a bias b of N and an M x N output y, all of one dtype (0 float32, 1 float16,
// 2 bfloat16). Returns a cudaError_t (0: launched).
int aka_bias_gelu_residual(const void* x, const void* b, const void* residual, void* y,
                           int64_t M, int64_t N, int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "bias_gelu_residual: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor bias_gelu_residual(torch::Tensor x, torch::Tensor b, torch::Tensor residual) {
  TORCH_CHECK(x.is_cuda() && b.is_cuda() && residual.is_cuda() && x.device() == b.device() &&
                  x.device() == residual.device(),
              "bias_gelu_residual: x, b and residual must be on one GPU");
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous() && residual.is_contiguous() &&
                  residual.sizes() == x.sizes(),
              "bias_gelu_residual: x and residual must be contiguous matrices of one shape");
  TORCH_CHECK(b.dim() == 1 && b.is_contiguous() && b.size(0) == x.size(1),
              "bias_gelu_residual: b must be a contiguous vector of x.size(1) elements");
  TORCH_CHECK(b.scalar_type() == x.scalar_type() && residual.scalar_type() == x.scalar_type(),
              "bias_gelu_residual: x, b and residual must have one dtype");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty_like(x);
  if (y.numel() == 0) return y;
  const int status = aka_bias_gelu_residual(x.data_ptr(), b.data_ptr(), residual.data_ptr(),
                                            y.data_ptr(), x.size(0), x.size(1), dtype_code(x),
                                            at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_bias_gelu_residual failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("bias_gelu_residual", &bias_gelu_residual, "residual + gelu_tanh(x + b)");
}
