// Python bindings for torch2hip/swiglu (pristine: not editable). The kernels and their
// launcher live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA
// API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the
// arena translates kernel.hip to CUDA. Checks the tensor, allocates the output, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

#include <vector>

extern "C" {
// out[m, n] = silu(x[m, n]) * x[m, N + n] for x seen as a contiguous M x 2N matrix (M the
// product of its leading dimensions) and an M x N out of the same dtype (0 float32,
// 1 float16, 2 bfloat16). Returns a hipError_t (0: launched).
int aka_swiglu(const void* x, void* out, int64_t M, int64_t N, int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "swiglu: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor swiglu(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "swiglu: x must be on the GPU");
  TORCH_CHECK(x.dim() >= 1 && x.is_contiguous(), "swiglu: x must be a contiguous tensor");
  TORCH_CHECK(x.size(-1) % 2 == 0, "swiglu: the last dimension of x must be even");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  const int64_t N = x.size(-1) / 2;
  std::vector<int64_t> shape(x.sizes().begin(), x.sizes().end());
  shape.back() = N;
  auto out = torch::empty(shape, x.options());
  if (out.numel() == 0) return out;
  const int64_t M = out.numel() / N;
  const int status = aka_swiglu(x.data_ptr(), out.data_ptr(), M, N, dtype_code(x),
                                at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_swiglu failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("swiglu", &swiglu, "SwiGLU: silu(first half of the last dim) * second half");
}
