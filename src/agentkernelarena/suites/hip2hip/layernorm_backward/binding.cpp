// Python bindings for hip2hip/layernorm_backward (pristine: not editable). The kernels and
// their launcher live in kernel.hip, which includes no torch header. Written against
// PyTorch's CUDA API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP);
// on NVIDIA the arena translates kernel.hip to CUDA. Checks the tensors, allocates the
// outputs, calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

#include <tuple>

extern "C" {
// The LayerNorm backward of y = (x - mean) * rstd * w + b over the rows of contiguous M x N
// dy and x (0 float32, 1 float16, 2 bfloat16), weight N (same dtype), mean and rstd M
// float32: dx (M x N, x's dtype), dgamma and dbeta (N, float32). Returns a hipError_t.
int aka_layernorm_backward(const void* dy, const void* x, const void* weight, const void* mean,
                           const void* rstd, void* dx, void* dgamma, void* dbeta, int64_t M,
                           int64_t N, int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "layernorm_backward: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> layernorm_backward(
    torch::Tensor dy, torch::Tensor x, torch::Tensor weight, torch::Tensor mean,
    torch::Tensor rstd) {
  TORCH_CHECK(dy.is_cuda() && x.is_cuda() && weight.is_cuda() && mean.is_cuda() && rstd.is_cuda(),
              "layernorm_backward: tensors must be on the GPU");
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous() && dy.sizes() == x.sizes() && dy.is_contiguous(),
              "layernorm_backward: x and dy must be contiguous M x N matrices");
  TORCH_CHECK(dy.scalar_type() == x.scalar_type() && weight.scalar_type() == x.scalar_type(),
              "layernorm_backward: dy, x and weight must share a dtype");
  const int64_t M = x.size(0), N = x.size(1);
  TORCH_CHECK(weight.dim() == 1 && weight.size(0) == N && weight.is_contiguous(),
              "layernorm_backward: weight must be a contiguous vector of length N");
  TORCH_CHECK(mean.scalar_type() == torch::kFloat32 && rstd.scalar_type() == torch::kFloat32 &&
                  mean.dim() == 1 && rstd.dim() == 1 && mean.size(0) == M && rstd.size(0) == M &&
                  mean.is_contiguous() && rstd.is_contiguous(),
              "layernorm_backward: mean and rstd must be contiguous float32 vectors of length M");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto dx = torch::empty_like(x);
  auto dgamma = torch::zeros({N}, x.options().dtype(torch::kFloat32));
  auto dbeta = torch::zeros({N}, x.options().dtype(torch::kFloat32));
  if (M == 0 || N == 0) return {dx, dgamma, dbeta};
  const int status = aka_layernorm_backward(
      dy.data_ptr(), x.data_ptr(), weight.data_ptr(), mean.data_ptr(), rstd.data_ptr(),
      dx.data_ptr(), dgamma.data_ptr(), dbeta.data_ptr(), M, N, dtype_code(x),
      at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_layernorm_backward failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return {dx, dgamma, dbeta};
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("layernorm_backward", &layernorm_backward,
        "LayerNorm backward: dx, dgamma, dbeta from the saved mean and rstd");
}
