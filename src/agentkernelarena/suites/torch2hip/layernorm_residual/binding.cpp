// Python bindings for torch2hip/layernorm_residual (pristine: not editable). The kernels and
// their launcher live in kernel.hip, which includes no torch header. Written against PyTorch's
// CUDA API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA
// the arena translates kernel.hip to CUDA. Checks the tensors, allocates the outputs, calls
// the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

#include <tuple>

extern "C" {
// h = x + residual (rounded to the dtype); y[m, n] = (h[m, n] - mean_m) / sqrt(var_m + eps) *
// w[n] + b[n] with the mean and the biased variance of row m of the rounded h; contiguous
// M x N matrices x, residual, h, y and vectors w, b of length N, all of one dtype (0 float32,
// 1 float16, 2 bfloat16). Returns a hipError_t (0: launched).
int aka_layernorm_residual(const void* x, const void* residual, const void* w, const void* b,
                           void* h, void* y, int64_t M, int64_t N, float eps, int dtype,
                           void* stream);
}

namespace {

constexpr float kEps = 1e-5f;

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "layernorm_residual: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

void check_vector(const torch::Tensor& v, const torch::Tensor& x, const char* name) {
  TORCH_CHECK(v.device() == x.device() && v.dim() == 1 && v.is_contiguous() &&
                  v.size(0) == x.size(1) && v.scalar_type() == x.scalar_type(),
              "layernorm_residual: ", name,
              " must be a contiguous vector of x's dtype on x's GPU, one value per column");
}

}  // namespace

std::tuple<torch::Tensor, torch::Tensor> layernorm_residual(torch::Tensor x,
                                                            torch::Tensor residual,
                                                            torch::Tensor w, torch::Tensor b) {
  TORCH_CHECK(x.is_cuda() && residual.device() == x.device(),
              "layernorm_residual: x and residual must be on one GPU");
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous() && x.size(1) > 0,
              "layernorm_residual: x must be a contiguous matrix with at least one column");
  TORCH_CHECK(residual.sizes() == x.sizes() && residual.is_contiguous() &&
                  residual.scalar_type() == x.scalar_type(),
              "layernorm_residual: residual must be a contiguous matrix like x");
  check_vector(w, x, "w");
  check_vector(b, x, "b");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto h = torch::empty_like(x);
  auto y = torch::empty_like(x);
  if (y.numel() == 0) return {h, y};
  const int status = aka_layernorm_residual(x.data_ptr(), residual.data_ptr(), w.data_ptr(),
                                            b.data_ptr(), h.data_ptr(), y.data_ptr(), x.size(0),
                                            x.size(1), kEps, dtype_code(x),
                                            at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_layernorm_residual failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return {h, y};
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("layernorm_residual", &layernorm_residual,
        "residual add (returned) followed by LayerNorm over the last dim");
}
