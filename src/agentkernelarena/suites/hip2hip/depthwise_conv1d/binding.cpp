// Python bindings for hip2hip/depthwise_conv1d (pristine: not editable). The kernels and their
// launcher live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA
// API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the
// arena translates kernel.hip to CUDA. Checks the tensors, allocates the output, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// Causal depthwise convolution with bias and SiLU: x and out are contiguous Bt x C x L, weight
// C x W (1 <= W <= 8), bias C, all of one dtype (0 float32, 1 float16, 2 bfloat16);
// out[b, c, l] = silu(bias[c] + sum_k weight[c, k] * x[b, c, l - W + 1 + k]) with x = 0 before
// l = 0. Returns a hipError_t (0: launched).
int aka_causal_conv1d(const void* x, const void* weight, const void* bias, void* out, int64_t Bt,
                      int64_t C, int64_t L, int64_t W, int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "depthwise_conv1d: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor causal_conv1d(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
  TORCH_CHECK(x.is_cuda() && weight.is_cuda() && bias.is_cuda(),
              "depthwise_conv1d: tensors must be on the GPU");
  TORCH_CHECK(x.dim() == 3 && x.is_contiguous(),
              "depthwise_conv1d: x must be a contiguous Bt x C x L tensor");
  const int64_t C = x.size(1);
  TORCH_CHECK(weight.dim() == 2 && weight.is_contiguous() && weight.size(0) == C,
              "depthwise_conv1d: weight must be a contiguous C x W matrix");
  TORCH_CHECK(weight.size(1) >= 1 && weight.size(1) <= 8, "depthwise_conv1d: W must be 1..8");
  TORCH_CHECK(bias.dim() == 1 && bias.is_contiguous() && bias.size(0) == C,
              "depthwise_conv1d: bias must be a contiguous vector of C");
  TORCH_CHECK(weight.scalar_type() == x.scalar_type() && bias.scalar_type() == x.scalar_type(),
              "depthwise_conv1d: x, weight and bias must share a dtype");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto out = torch::empty_like(x);
  if (out.numel() == 0) return out;
  const int status = aka_causal_conv1d(x.data_ptr(), weight.data_ptr(), bias.data_ptr(),
                                       out.data_ptr(), x.size(0), C, x.size(2), weight.size(1),
                                       dtype_code(x), at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_causal_conv1d failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("causal_conv1d", &causal_conv1d, "causal depthwise conv1d + bias + SiLU (NCL)");
}
