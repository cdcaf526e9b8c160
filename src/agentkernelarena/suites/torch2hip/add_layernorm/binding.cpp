// Python bindings for torch2hip/add_layernorm (pristine: not editable). The kernels and their
// launcher live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA
// API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the
// arena translates kernel.hip to CUDA. Checks the tensors, allocates the output, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// h = x + residual; y[m, n] = (h[m, n] - mean_m) / sqrt(var_m + eps) * w[n] + b[n] with the
// mean and the biased variance of row m of h, for contiguous M x N matrices x, residual, y and
// vectors w, b of length N, all of one dtype (0 float32, 1 float16, 2 bfloat16). Returns a
// hipError_t (0: launched).
int aka_add_layernorm(const void* x, const void* residual, const void* w, const void* b, void* y,
                      int64_t M, int64_t N, float eps, int dtype, void* stream);
}

namespace {

constexpr float kEps = 1e-5f;

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "add_layernorm: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

void check_vector(const torch::Tensor& v, const torch::Tensor& x, const char* name) {
  TORCH_CHECK(v.device() == x.device() && v.dim() == 1 && v.is_contiguous() &&
                  v.size(0) == x.size(1) && v.scalar_type() == x.scalar_type(),
              "add_layernorm: ", name,
              " must be a contiguous vector of x's dtype on x's GPU, one value per column");
}

}  // namespace

torch::Tensor add_layernorm(torch::Tensor x, torch::Tensor residual, torch::Tensor w,
                            torch::Tensor b) {
  TORCH_CHECK(x.is_cuda() && residual.device() == x.device(),
              "add_layernorm: x and residual must be on one GPU");
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous(), "add_layernorm: x must be a contiguous matrix");
  TORCH_CHECK(residual.sizes() == x.sizes() && residual.is_contiguous() &&
                  residual.scalar_type() == x.scalar_type(),
              "add_layernorm: residual must be a contiguous matrix like x");
  check_vector(w, x, "w");
  check_vector(b, x, "b");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty_like(x);
  if (y.numel() == 0) return y;
  const int status = aka_add_layernorm(x.data_ptr(), residual.data_ptr(), w.data_ptr(),
                                       b.data_ptr(), y.data_ptr(), x.size(0), x.size(1), kEps,
                                       dtype_code(x), at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_add_layernorm failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("add_layernorm", &add_layernorm, "residual add followed by LayerNorm over the last dim");
}
