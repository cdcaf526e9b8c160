// Python bindings for hip2hip/silu_mul (pristine: not editable). The kernels and their
// launcher live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA
// API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the
// arena translates kernel.hip to CUDA. Checks the tensor, allocates the output, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// out[m, n] = silu(x[m, n]) * x[m, N + n] for a contiguous M x 2N matrix x and an M x N out of
// the same dtype (0 float32, 1 float16, 2 bfloat16). Returns a hipError_t (0: launched).
int aka_silu_mul(const void* x, void* out, int64_t M, int64_t N, int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "silu_mul: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor silu_mul(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "silu_mul: x must be on the GPU");
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous(), "silu_mul: x must be a contiguous matrix");
  TORCH_CHECK(x.size(1) % 2 == 0, "silu_mul: x must have an even number of columns");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  const int64_t M = x.size(0), N = x.size(1) / 2;
  auto out = torch::empty({M, N}, x.options());
  if (out.numel() == 0) return out;
  const int status = aka_silu_mul(x.data_ptr(), out.data_ptr(), M, N, dtype_code(x),
                                  at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_silu_mul failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("silu_mul", &silu_mul, "SwiGLU activation: silu(first half) * second half");
}
