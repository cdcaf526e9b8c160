// Python bindings for torch2hip/linear_gelu (pristine: not editable). The kernels and their
// launcher live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA
// API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the
// arena translates kernel.hip to CUDA. Checks the tensors, allocates the output, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// y[m, n] = gelu(sum_k x[m, k] * w[n, k] + b[n]) (exact erf GELU, float32 arithmetic) for
// contiguous x (M x K), w (N x K), b (N) and y (M x N) of one dtype (1 float16, 2 bfloat16).
// Returns a hipError_t (0: launched).
int aka_linear_gelu(const void* x, const void* w, const void* b, void* y, int64_t M, int64_t N,
                    int64_t K, int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "linear_gelu: x must be float16 or bfloat16, not ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor linear_gelu(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
  TORCH_CHECK(x.is_cuda() && w.device() == x.device() && b.device() == x.device(),
              "linear_gelu: x, w and b must be on one GPU");
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous() && x.size(1) > 0,
              "linear_gelu: x must be a contiguous M x K matrix with K > 0");
  TORCH_CHECK(w.dim() == 2 && w.is_contiguous() && w.size(1) == x.size(1) &&
                  w.scalar_type() == x.scalar_type(),
              "linear_gelu: w must be a contiguous N x K matrix of x's dtype");
  TORCH_CHECK(b.dim() == 1 && b.is_contiguous() && b.size(0) == w.size(0) &&
                  b.scalar_type() == x.scalar_type(),
              "linear_gelu: b must be a contiguous vector of length N of x's dtype");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty({x.size(0), w.size(0)}, x.options());
  if (y.numel() == 0) return y;
  const int status = aka_linear_gelu(x.data_ptr(), w.data_ptr(), b.data_ptr(), y.data_ptr(),
                                     x.size(0), w.size(0), x.size(1), dtype_code(x),
                                     at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_linear_gelu failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("linear_gelu", &linear_gelu, "gelu(x @ w^T + b), exact GELU");
}
