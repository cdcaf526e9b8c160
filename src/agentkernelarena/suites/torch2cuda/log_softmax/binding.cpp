// Python bindings for torch2cuda/log_softmax (pristine: not editable). The kernels and their
// launcher live in kernel.cu, which includes no torch header; this file checks the tensor,
// allocates the output and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// y[m, n] = x[m, n] - max(x[m, :]) - log(sum_n exp(x[m, n] - max(x[m, :]))) for a contiguous
// M x N matrix x and an M x N output y of the same dtype (0 float32, 1 float16, 2 bfloat16).
// Returns a cudaError_t (0: launched).
int aka_log_softmax_forward(const void* x, void* y, int64_t M, int64_t N, int dtype,
                            void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "log_softmax: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor log_softmax(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "log_softmax: x must be on a GPU");
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous(), "log_softmax: x must be a contiguous matrix");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty_like(x);
  if (y.numel() == 0) return y;
  const int status = aka_log_softmax_forward(x.data_ptr(), y.data_ptr(), x.size(0), x.size(1),
                                             dtype_code(x),
                                             at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_log_softmax_forward failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("log_softmax", &log_softmax, "log-softmax over the last dimension");
}
