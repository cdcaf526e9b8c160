// Python bindings for torch2hip/l2_normalize (pristine: not editable). The kernels and their
// launcher live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA
// API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the
// arena translates kernel.hip to CUDA. Checks the tensor, allocates the output, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// y[m, n] = x[m, n] / max(sqrt(sum_n x[m, n]^2), eps) for contiguous M x N matrices x and y of
// one dtype (0 float32, 1 float16, 2 bfloat16). Returns a hipError_t (0: launched).
int aka_l2_normalize(const void* x, void* y, int64_t M, int64_t N, float eps, int dtype,
                     void* stream);
}

namespace {

constexpr float kEps = 1e-12f;

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "l2_normalize: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor l2_normalize(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "l2_normalize: x must be on the GPU");
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous(), "l2_normalize: x must be a contiguous matrix");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty_like(x);
  if (y.numel() == 0) return y;
  const int status = aka_l2_normalize(x.data_ptr(), y.data_ptr(), x.size(0), x.size(1), kEps,
                                      dtype_code(x), at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_l2_normalize failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("l2_normalize", &l2_normalize, "rows divided by their L2 norm (at least eps)");
}
