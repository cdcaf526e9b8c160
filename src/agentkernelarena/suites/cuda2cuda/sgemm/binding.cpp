// Python bindings for cuda2cuda/sgemm (pristine: not editable). The kernels and their
// launcher live in kernel.cu, which includes no torch header; this file checks the tensors,
// allocates the output and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// c = a @ b for row-major float32 a (M x K), b (K x N), c (M x N), on `stream`.
// Returns a cudaError_t (0: launched).
int aka_sgemm(const void* a, const void* b, void* c, int64_t M, int64_t N, int64_t K,
              void* stream);
}

torch::Tensor sgemm(torch::Tensor a, torch::Tensor b) {
  TORCH_CHECK(a.is_cuda() && b.is_cuda(), "sgemm: a and b must be on the GPU");
  TORCH_CHECK(a.device() == b.device(), "sgemm: a and b must be on one device");
  TORCH_CHECK(a.scalar_type() == torch::kFloat32 && b.scalar_type() == torch::kFloat32,
              "sgemm: a and b must be float32");
  TORCH_CHECK(a.dim() == 2 && b.dim() == 2 && a.size(1) == b.size(0),
              "sgemm: a (M x K) and b (K x N) must be matrices with matching K");
  TORCH_CHECK(a.is_contiguous() && b.is_contiguous(), "sgemm: a and b must be contiguous");
  const c10::cuda::OptionalCUDAGuard guard(a.device());
  auto c = torch::empty({a.size(0), b.size(1)}, a.options());
  if (c.numel() == 0) return c;
  if (a.size(1) == 0) return c.zero_();
  const int status = aka_sgemm(a.data_ptr(), b.data_ptr(), c.data_ptr(), a.size(0), b.size(1),
                               a.size(1), at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_sgemm failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return c;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("sgemm", &sgemm, "float32 matrix product of two row-major matrices");
}
