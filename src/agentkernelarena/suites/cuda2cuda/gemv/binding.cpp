// Python bindings for cuda2cuda/gemv (pristine: not editable). The kernels and their
// launcher live in kernel.cu, which includes no torch header; this file checks the tensors,
// allocates the output and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// y = a @ x for a contiguous row-major M x K matrix a, a vector x of K and a vector y of M,
// all of one dtype (0 float32, 1 float16, 2 bfloat16), accumulated in float32.
// Returns a cudaError_t (0: launched).
int aka_gemv(const void* a, const void* x, void* y, int64_t M, int64_t K, int dtype,
             void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "gemv: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor gemv(torch::Tensor a, torch::Tensor x) {
  TORCH_CHECK(a.is_cuda() && x.is_cuda() && a.device() == x.device(),
              "gemv: a and x must be on one GPU");
  TORCH_CHECK(a.dim() == 2 && a.is_contiguous(), "gemv: a must be a contiguous matrix");
  TORCH_CHECK(x.dim() == 1 && x.is_contiguous() && x.size(0) == a.size(1),
              "gemv: x must be a contiguous vector of a.size(1) elements");
  TORCH_CHECK(x.scalar_type() == a.scalar_type(), "gemv: a and x must have one dtype");
  const c10::cuda::OptionalCUDAGuard guard(a.device());
  auto y = torch::empty({a.size(0)}, a.options());
  if (y.numel() == 0) return y;
  if (a.size(1) == 0) return y.zero_();
  const int status = aka_gemv(a.data_ptr(), x.data_ptr(), y.data_ptr(), a.size(0), a.size(1),
                              dtype_code(a), at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_gemv failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("gemv", &gemv, "matrix-vector product of a row-major matrix and a vector");
}
