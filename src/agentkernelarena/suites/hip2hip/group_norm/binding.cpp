// Python bindings for hip2hip/group_norm (pristine: not editable). The kernels and their
// launcher live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA
// API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the
// arena translates kernel.hip to CUDA. Checks the tensors, allocates the output, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// GroupNorm forward with affine (eps 1e-5): x and y contiguous N x C x HW, weight and bias C,
// all of one dtype (0 float32, 1 float16, 2 bfloat16); G groups of C / G channels. Returns a
// hipError_t (0: launched).
int aka_group_norm(const void* x, const void* weight, const void* bias, void* y, int64_t N,
                   int64_t C, int64_t HW, int64_t G, int dtype, void* stream);
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

// The task's module: GroupNorm(32, C), the grouping of diffusion UNets and VAEs.
constexpr int64_t kGroups = 32;

torch::Tensor group_norm(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
  const int64_t num_groups = kGroups;
  TORCH_CHECK(x.is_cuda() && weight.is_cuda() && bias.is_cuda(),
              "group_norm: tensors must be on the GPU");
  TORCH_CHECK(x.dim() == 4 && x.is_contiguous(), "group_norm: x must be a contiguous NCHW tensor");
  const int64_t C = x.size(1);
  TORCH_CHECK(num_groups > 0 && C % num_groups == 0, "group_norm: C must be a multiple of 32");
  TORCH_CHECK(weight.dim() == 1 && weight.size(0) == C && weight.is_contiguous() &&
                  bias.dim() == 1 && bias.size(0) == C && bias.is_contiguous(),
              "group_norm: weight and bias must be contiguous vectors of C");
  TORCH_CHECK(weight.scalar_type() == x.scalar_type() && bias.scalar_type() == x.scalar_type(),
              "group_norm: weight and bias must have x's dtype");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty_like(x);
  if (y.numel() == 0) return y;
  const int status = aka_group_norm(x.data_ptr(), weight.data_ptr(), bias.data_ptr(),
                                    y.data_ptr(), x.size(0), C, x.size(2) * x.size(3),
                                    num_groups, dtype_code(x),
                                    at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_group_norm failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("group_norm", &group_norm, "GroupNorm(32, C) forward with affine weight and bias, NCHW");
}
