// Python bindings for torch2cuda/group_norm (pristine: not editable). The kernels and their
// launcher live in kernel.cu, which includes no torch header; this file checks the tensors,
// allocates the output and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// GroupNorm of a contiguous N x C x HW array x (NCHW with HW = H * W) in G groups of C / G
// consecutive channels: y = (x - mean[n, g]) * rsqrt(var[n, g] + eps) * weight[c] + bias[c],
// with the mean and biased variance of the C / G * HW elements of group g of sample n, in
// float32. x, y, weight and bias (vectors of C) have one dtype (0 float32, 1 float16,
// 2 bfloat16). Returns a cudaError_t (0: launched).
int aka_group_norm(const void* x, const void* weight, const void* bias, void* y, int64_t N,
                   int64_t C, int64_t HW, int64_t G, float eps, int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "group_norm: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor group_norm(torch::Tensor x, torch::Tensor weight, torch::Tensor bias,
                         int64_t groups, double eps) {
  TORCH_CHECK(x.is_cuda() && weight.is_cuda() && bias.is_cuda() &&
                  x.device() == weight.device() && x.device() == bias.device(),
              "group_norm: x, weight and bias must be on one GPU");
  TORCH_CHECK(x.dim() == 4 && x.is_contiguous(), "group_norm: x must be contiguous NCHW");
  TORCH_CHECK(groups > 0 && x.size(1) % groups == 0,
              "group_norm: the channels must split evenly into the groups");
  TORCH_CHECK(weight.dim() == 1 && weight.is_contiguous() && weight.size(0) == x.size(1) &&
                  bias.dim() == 1 && bias.is_contiguous() && bias.size(0) == x.size(1),
              "group_norm: weight and bias must be contiguous vectors of x.size(1)");
  TORCH_CHECK(weight.scalar_type() == x.scalar_type() && bias.scalar_type() == x.scalar_type(),
              "group_norm: x, weight and bias must have one dtype");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty_like(x);
  if (y.numel() == 0) return y;
  const int status = aka_group_norm(x.data_ptr(), weight.data_ptr(), bias.data_ptr(),
                                    y.data_ptr(), x.size(0), x.size(1), x.size(2) * x.size(3),
                                    groups, static_cast<float>(eps), dtype_code(x),
                                    at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_group_norm failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("group_norm", &group_norm, "GroupNorm with affine weight and bias, NCHW");
}
