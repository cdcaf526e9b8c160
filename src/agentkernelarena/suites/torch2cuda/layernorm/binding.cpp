// Python bindings for torch2cuda/layernorm (pristine: not editable). The kernels and their
// launcher live in kernel.cu, which includes no torch header; this file checks the tensors,
// allocates the output and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// y[m, n] = (x[m, n] - mean[m]) / sqrt(var[m] + eps) * w[n] + b[n] with the mean and the biased
// variance of row m, for a contiguous M x N matrix x, a weight w and a bias b of N and an M x N
// output y, all of one dtype (0 float32, 1 float16, 2 bfloat16). Returns a cudaError_t (0:
// launched).
int aka_layernorm_forward(const void* x, const void* w, const void* b, void* y, int64_t M,
                          int64_t N, float eps, int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "layernorm: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor layernorm(torch::Tensor x, torch::Tensor w, torch::Tensor b, double eps) {
  TORCH_CHECK(x.is_cuda() && w.is_cuda() && b.is_cuda() && x.device() == w.device() &&
                  x.device() == b.device(),
              "layernorm: x, w and b must be on one GPU");
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous(), "layernorm: x must be a contiguous matrix");
  TORCH_CHECK(w.dim() == 1 && w.is_contiguous() && w.size(0) == x.size(1),
              "layernorm: w must be a contiguous vector of x.size(1) elements");
  TORCH_CHECK(b.dim() == 1 && b.is_contiguous() && b.size(0) == x.size(1),
              "layernorm: b must be a contiguous vector of x.size(1) elements");
  TORCH_CHECK(w.scalar_type() == x.scalar_type() && b.scalar_type() == x.scalar_type(),
              "layernorm: x, w and b must have one dtype");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty_like(x);
  if (y.numel() == 0) return y;
  const int status = aka_layernorm_forward(
      x.data_ptr(), w.data_ptr(), b.data_ptr(), y.data_ptr(), x.size(0), x.size(1),
      static_cast<float>(eps), dtype_code(x), at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_layernorm_forward failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("layernorm", &layernorm, "LayerNorm over the last dimension, with weight and bias");
}
