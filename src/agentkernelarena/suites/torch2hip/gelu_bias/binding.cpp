// Python bindings for torch2hip/gelu_bias (pristine: not editable). The kernels and their
// launcher live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA
// API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the
// arena translates kernel.hip to CUDA. Checks the tensors, allocates the output, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// y[m, n] = gelu_tanh(x[m, n] + b[n]) for a contiguous M x N matrix x, a bias b of length N
// and an M x N output y, all of one dtype (0 float32, 1 float16, 2 bfloat16). Returns a
// hipError_t (0: launched).
int aka_gelu_bias(const void* x, const void* b, void* y, int64_t M, int64_t N, int dtype,
                  void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "gelu_bias: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor gelu_bias(torch::Tensor x, torch::Tensor b) {
  TORCH_CHECK(x.is_cuda() && b.is_cuda() && x.device() == b.device(),
              "gelu_bias: x and b must be on one GPU");
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous(), "gelu_bias: x must be a contiguous matrix");
  TORCH_CHECK(b.dim() == 1 && b.is_contiguous() && b.size(0) == x.size(1) &&
                  b.scalar_type() == x.scalar_type(),
              "gelu_bias: b must be a contiguous vector of x's dtype, one value per column");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty_like(x);
  if (y.numel() == 0) return y;
  const int status = aka_gelu_bias(x.data_ptr(), b.data_ptr(), y.data_ptr(), x.size(0), x.size(1),
                                   dtype_code(x), at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_gelu_bias failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("gelu_bias", &gelu_bias, "bias add followed by the tanh approximation of GELU");
}
