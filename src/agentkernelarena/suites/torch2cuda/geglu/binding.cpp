// Python bindings for torch2cuda/geglu (pristine: not editable). The kernels and their
// launcher live in kernel.cu, which includes no torch header; this file checks the tensor,
// allocates the output and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// out[m, n] = x[m, n] * gelu(x[m, N + n]) (exact, erf-based gelu) for a contiguous M x 2N
// matrix x and a contiguous M x N output, of one dtype (0 float32, 1 float16, 2 bfloat16).
// Returns a cudaError_t (0: launched).
int aka_geglu(const void* x, void* out, int64_t M, int64_t N, int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "geglu: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor geglu(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "geglu: x must be on a GPU");
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous(), "geglu: x must be a contiguous matrix");
  TORCH_CHECK(x.size(1) % 2 == 0, "geglu: x must have an even number of columns");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  const int64_t M = x.size(0), N = x.size(1) / 2;
  auto out = torch::empty({M, N}, x.options());
  if (out.numel() == 0) return out;
  const int status = aka_geglu(x.data_ptr(), out.data_ptr(), M, N, dtype_code(x),
                               at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_geglu failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("geglu", &geglu, "GEGLU: x[:, :N] * gelu(x[:, N:])");
}
