// Python bindings for torch2cuda/linear_relu (pristine: not editable). The kernels and their
// launcher live in kernel.cu, which includes no torch header; this file checks the tensors,
// allocates the output and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// y[m, n] = max(0, sum_k x[m, k] * weight[n, k] + bias[n]) with float32 accumulation, for a
// contiguous M x K x, a contiguous N x K weight (nn.Linear's layout), a bias of N and a
// contiguous M x N y, all of one dtype (1 float16, 2 bfloat16). Returns a cudaError_t (0:
// launched).
int aka_linear_relu(const void* x, const void* weight, const void* bias, void* y, int64_t M,
                    int64_t N, int64_t K, int dtype, void* stream);
}

torch::Tensor linear_relu(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
  TORCH_CHECK(x.is_cuda() && weight.is_cuda() && bias.is_cuda() &&
                  x.device() == weight.device() && x.device() == bias.device(),
              "linear_relu: x, weight and bias must be on one GPU");
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous(), "linear_relu: x must be a contiguous matrix");
  TORCH_CHECK(weight.dim() == 2 && weight.is_contiguous() && weight.size(1) == x.size(1),
              "linear_relu: weight must be a contiguous N x K matrix, K = x.size(1)");
  TORCH_CHECK(bias.dim() == 1 && bias.is_contiguous() && bias.size(0) == weight.size(0),
              "linear_relu: bias must be a contiguous vector of weight.size(0)");
  TORCH_CHECK(x.scalar_type() == weight.scalar_type() && x.scalar_type() == bias.scalar_type(),
              "linear_relu: x, weight and bias must have one dtype");
  TORCH_CHECK(x.scalar_type() == torch::kFloat16 || x.scalar_type() == torch::kBFloat16,
              "linear_relu: float16 or bfloat16 only");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty({x.size(0), weight.size(0)}, x.options());
  if (y.numel() == 0) return y;
  const int dtype = x.scalar_type() == torch::kFloat16 ? 1 : 2;
  const int status = aka_linear_relu(x.data_ptr(), weight.data_ptr(), bias.data_ptr(),
                                     y.data_ptr(), x.size(0), weight.size(0), x.size(1), dtype,
                                     at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_linear_relu failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("linear_relu", &linear_relu, "relu(x @ weight.T + bias), float32 accumulation");
}
