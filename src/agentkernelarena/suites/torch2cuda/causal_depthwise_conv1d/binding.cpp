// Python bindings for torch2cuda/causal_depthwise_conv1d (pristine: not editable). The kernels
// and their launcher live in kernel.cu, which includes no torch header; this file checks the
// tensors, allocates the output and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// out[b, c, t] = silu(bias[c] + sum_{i < K} weight[c, i] * x[b, c, t - (K - 1) + i]) with x = 0
// before t = 0, in float32, for contiguous B x C x L arrays x and out, a contiguous C x K weight
// and a bias of C, all of one dtype (0 float32, 1 float16, 2 bfloat16). Returns a cudaError_t
// (0: launched).
int aka_causal_conv1d_silu(const void* x, const void* weight, const void* bias, void* out,
                           int64_t B, int64_t C, int64_t L, int64_t K, int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "causal_conv1d_silu: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor causal_conv1d_silu(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
  TORCH_CHECK(x.is_cuda() && weight.is_cuda() && bias.is_cuda() &&
                  x.device() == weight.device() && x.device() == bias.device(),
              "causal_conv1d_silu: x, weight and bias must be on one GPU");
  TORCH_CHECK(x.dim() == 3 && x.is_contiguous(),
              "causal_conv1d_silu: x must be a contiguous B x C x L tensor");
  TORCH_CHECK(weight.dim() == 2 && weight.is_contiguous() && weight.size(0) == x.size(1) &&
                  weight.size(1) >= 1,
              "causal_conv1d_silu: weight must be a contiguous C x K matrix");
  TORCH_CHECK(bias.dim() == 1 && bias.is_contiguous() && bias.size(0) == x.size(1),
              "causal_conv1d_silu: bias must be a contiguous vector of C");
  TORCH_CHECK(weight.scalar_type() == x.scalar_type() && bias.scalar_type() == x.scalar_type(),
              "causal_conv1d_silu: x, weight and bias must have one dtype");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto out = torch::empty_like(x);
  if (out.numel() == 0) return out;
  const int status = aka_causal_conv1d_silu(
      x.data_ptr(), weight.data_ptr(), bias.data_ptr(), out.data_ptr(), x.size(0), x.size(1),
      x.size(2), weight.size(1), dtype_code(x), at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_causal_conv1d_silu failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("causal_conv1d_silu", &causal_conv1d_silu,
        "depthwise causal conv1d (channels first) with bias, then SiLU");
}
