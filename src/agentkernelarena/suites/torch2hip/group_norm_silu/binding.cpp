// Python bindings for torch2hip/group_norm_silu (pristine: not editable). The kernels and their
// launcher live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA
// API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the
// arena translates kernel.hip to CUDA. Checks the tensors, allocates the output, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// y = silu(group_norm(x)) for a contiguous N x C x HW tensor x split into G groups of C / G
// consecutive channels: each (n, group) is normalized by its mean and biased variance (eps
// added), then channel c is scaled by w[c] and shifted by b[c], and silu(v) = v / (1 + exp(-v))
// applied; w, b have length C, y is N x C x HW, all of one dtype (0 float32, 1 float16,
// 2 bfloat16). Returns a hipError_t (0: launched).
int aka_group_norm_silu(const void* x, const void* w, const void* b, void* y, int64_t N,
                        int64_t C, int64_t HW, int64_t G, float eps, int dtype, void* stream);
}

namespace {

constexpr int64_t kGroups = 32;
constexpr float kEps = 1e-6f;

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "group_norm_silu: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

void check_vector(const torch::Tensor& v, const torch::Tensor& x, const char* name) {
  TORCH_CHECK(v.device() == x.device() && v.dim() == 1 && v.is_contiguous() &&
                  v.size(0) == x.size(1) && v.scalar_type() == x.scalar_type(),
              "group_norm_silu: ", name,
              " must be a contiguous vector of x's dtype on x's GPU, one value per channel");
}

}  // namespace

torch::Tensor group_norm_silu(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
  TORCH_CHECK(x.is_cuda(), "group_norm_silu: x must be on the GPU");
  TORCH_CHECK(x.dim() == 4 && x.is_contiguous(),
              "group_norm_silu: x must be a contiguous N x C x H x W tensor");
  TORCH_CHECK(x.size(1) % kGroups == 0, "group_norm_silu: C must be a multiple of 32");
  check_vector(w, x, "w");
  check_vector(b, x, "b");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty_like(x);
  if (y.numel() == 0) return y;
  const int status = aka_group_norm_silu(x.data_ptr(), w.data_ptr(), b.data_ptr(), y.data_ptr(),
                                         x.size(0), x.size(1), x.size(2) * x.size(3), kGroups,
                                         kEps, dtype_code(x),
                                         at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_group_norm_silu failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("group_norm_silu", &group_norm_silu, "GroupNorm (32 groups, affine) followed by SiLU");
}
