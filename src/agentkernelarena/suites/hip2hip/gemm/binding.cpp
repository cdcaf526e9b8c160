// Python bindings for hip2hip/gemm (pristine: not editable). The kernels and their launcher
// live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA API: on
// ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the arena
// translates kernel.hip to CUDA. Checks the tensors, allocates the output, calls the launcher
// on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// c = a @ b for contiguous row-major a (M x K), b (K x N), c (M x N) of one dtype (1 float16,
// 2 bfloat16), accumulated in float32. Returns a hipError_t (0: launched).
int aka_gemm(const void* a, const void* b, void* c, int64_t M, int64_t N, int64_t K, int dtype,
             void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "gemm: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor gemm(torch::Tensor a, torch::Tensor b) {
  TORCH_CHECK(a.is_cuda() && b.is_cuda(), "gemm: a and b must be on the GPU");
  TORCH_CHECK(a.dim() == 2 && b.dim() == 2 && a.is_contiguous() && b.is_contiguous(),
              "gemm: a and b must be contiguous matrices");
  TORCH_CHECK(a.size(1) == b.size(0), "gemm: inner dimensions differ");
  TORCH_CHECK(a.scalar_type() == b.scalar_type(), "gemm: a and b must share a dtype");
  const c10::cuda::OptionalCUDAGuard guard(a.device());
  const int64_t M = a.size(0), K = a.size(1), N = b.size(1);
  auto c = torch::empty({M, N}, a.options());
  if (c.numel() == 0) return c;
  TORCH_CHECK(K > 0, "gemm: the inner dimension must not be empty");
  const int status = aka_gemm(a.data_ptr(), b.data_ptr(), c.data_ptr(), M, N, K, dtype_code(a),
                              at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_gemm failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return c;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("gemm", &gemm, "half-precision matrix product accumulated in float32");
}
