// Python bindings for torch2hip/add_rmsnorm (pristine: not editable). The kernels and their
// launcher live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA
// API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the
// arena translates kernel.hip to CUDA. Checks the tensors, allocates the output, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// h = x + residual; y[m, n] = h[m, n] / sqrt(mean_n(h[m, :]^2) + eps) * w[n] for contiguous
// M x N matrices x, residual, y and a weight w of length N, all of one dtype (0 float32,
// 1 float16, 2 bfloat16). Returns a hipError_t (0: launched).
int aka_add_rmsnorm(const void* x, const void* residual, const void* w, void* y, int64_t M,
                    int64_t N, float eps, int dtype, void* stream);
}

namespace {

constexpr float kEps = 1e-6f;

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "add_rmsnorm: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor add_rmsnorm(torch::Tensor x, torch::Tensor residual, torch::Tensor w) {
  TORCH_CHECK(x.is_cuda() && residual.device() == x.device() && w.device() == x.device(),
              "add_rmsnorm: x, residual and w must be on one GPU");
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous(), "add_rmsnorm: x must be a contiguous matrix");
  TORCH_CHECK(residual.sizes() == x.sizes() && residual.is_contiguous() &&
                  residual.scalar_type() == x.scalar_type(),
              "add_rmsnorm: residual must be a contiguous matrix like x");
  TORCH_CHECK(w.dim() == 1 && w.is_contiguous() && w.size(0) == x.size(1) &&
                  w.scalar_type() == x.scalar_type(),
              "add_rmsnorm: w must be a contiguous vector of x's dtype, one value per column");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty_like(x);
  if (y.numel() == 0) return y;
  const int status = aka_add_rmsnorm(x.data_ptr(), residual.data_ptr(), w.data_ptr(),
                                     y.data_ptr(), x.size(0), x.size(1), kEps, dtype_code(x),
                                     at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_add_rmsnorm failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("add_rmsnorm", &add_rmsnorm, "residual add followed by RMSNorm over the last dim");
}
