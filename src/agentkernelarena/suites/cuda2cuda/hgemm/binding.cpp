// Python bindings for cuda2cuda/hgemm (pristine: not editable). The kernels and their
// launcher live in kernel.cu, which includes no torch header; this file checks the tensors,
// allocates the output and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// c = a @ b for row-major float16 a (M x K), b (K x N), c (M x N), accumulated in float32
// and rounded once to float16, on `stream`. Returns a cudaError_t (0: launched).
int aka_hgemm(const void* a, const void* b, void* c, int64_t M, int64_t N, int64_t K,
              void* stream);
}

torch::Tensor hgemm(torch::Tensor a, torch::Tensor b) {
  TORCH_CHECK(a.is_cuda() && b.is_cuda() && a.device() == b.device(),
              "hgemm: a and b must be on one GPU");
  TORCH_CHECK(a.scalar_type() == torch::kFloat16 && b.scalar_type() == torch::kFloat16,
              "hgemm: a and b must be float16");
  TORCH_CHECK(a.dim() == 2 && b.dim() == 2 && a.size(1) == b.size(0),
              "hgemm: a (M x K) and b (K x N) must be matrices with matching K");
  TORCH_CHECK(a.is_contiguous() && b.is_contiguous(), "hgemm: a and b must be contiguous");
  const c10::cuda::OptionalCUDAGuard guard(a.device());
  auto c = torch::empty({a.size(0), b.size(1)}, a.options());
  if (c.numel() == 0) return c;
  if (a.size(1) == 0) return c.zero_();
  const int status = aka_hgemm(a.data_ptr(), b.data_ptr(), c.data_ptr(), a.size(0), b.size(1),
                               a.size(1), at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_hgemm failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return c;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("hgemm", &hgemm, "float16 matrix product with float32 accumulation");
}
