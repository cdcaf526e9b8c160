// Python bindings for hip2hip/logsumexp (pristine: not editable). The kernels and their
// launcher live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA
// API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the
// arena translates kernel.hip to CUDA. Checks the tensors, allocates the output, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// out[m] = log(sum_n exp(x[m, n])) for a contiguous M x N matrix x (dtype 0 float32,
// 1 float16, 2 bfloat16) into float32 out (M). Returns a hipError_t (0: launched).
int aka_logsumexp_forward(const void* x, void* out, int64_t M, int64_t N, int dtype,
                          void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "logsumexp: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor logsumexp(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "logsumexp: x must be on the GPU");
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous(), "logsumexp: x must be a contiguous matrix");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto out = torch::empty({x.size(0)}, x.options().dtype(torch::kFloat32));
  if (out.numel() == 0) return out;
  TORCH_CHECK(x.size(1) > 0, "logsumexp: rows must not be empty");
  const int status = aka_logsumexp_forward(x.data_ptr(), out.data_ptr(), x.size(0), x.size(1),
                                           dtype_code(x),
                                           at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_logsumexp_forward failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("logsumexp", &logsumexp, "row-wise log-sum-exp, in float32");
}
