// Python bindings for torch2cuda/batchnorm_relu_inference (pristine: not editable). The kernels
// and their launcher live in kernel.cu, which includes no torch header; this file checks the
// tensors, allocates the output and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// y[n, c, i] = max(0, (x[n, c, i] - mean[c]) * rsqrt(var[c] + eps) * weight[c] + bias[c]) for
// contiguous N x C x HW arrays x and y of one dtype (0 float32, 1 float16, 2 bfloat16) and
// float32 vectors weight, bias, mean and var of C. Returns a cudaError_t (0: launched).
int aka_batchnorm_relu(const void* x, const void* weight, const void* bias, const void* mean,
                       const void* var, void* y, int64_t N, int64_t C, int64_t HW, float eps,
                       int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "batchnorm_relu: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

void check_param(const torch::Tensor& p, const torch::Tensor& x, const char* name) {
  TORCH_CHECK(p.is_cuda() && p.device() == x.device(), "batchnorm_relu: ", name,
              " must be on x's GPU");
  TORCH_CHECK(p.dim() == 1 && p.is_contiguous() && p.size(0) == x.size(1) &&
                  p.scalar_type() == torch::kFloat32,
              "batchnorm_relu: ", name, " must be a contiguous float32 vector of x.size(1)");
}

}  // namespace

torch::Tensor batchnorm_relu(torch::Tensor x, torch::Tensor weight, torch::Tensor bias,
                             torch::Tensor mean, torch::Tensor var, double eps) {
  TORCH_CHECK(x.is_cuda(), "batchnorm_relu: x must be on a GPU");
  TORCH_CHECK(x.dim() == 4 && x.is_contiguous(), "batchnorm_relu: x must be contiguous NCHW");
  check_param(weight, x, "weight");
  check_param(bias, x, "bias");
  check_param(mean, x, "running_mean");
  check_param(var, x, "running_var");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty_like(x);
  if (y.numel() == 0) return y;
  const int status = aka_batchnorm_relu(
      x.data_ptr(), weight.data_ptr(), bias.data_ptr(), mean.data_ptr(), var.data_ptr(),
      y.data_ptr(), x.size(0), x.size(1), x.size(2) * x.size(3), static_cast<float>(eps),
      dtype_code(x), at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_batchnorm_relu failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("batchnorm_relu", &batchnorm_relu,
        "inference BatchNorm2d (running statistics) followed by ReLU, NCHW");
}
