// Python bindings for hip2hip/cumsum (pristine: not editable). The kernels and their launcher
// live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA API: on
// ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the arena
// translates kernel.hip to CUDA. Checks the tensor, allocates the output, calls the launcher
// on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// y[m, n] = sum_{k <= n} x[m, k] (inclusive prefix sums along the rows, accumulated in
// float32) of a contiguous M x N matrix x; x and y share one dtype (0 float32, 1 float16,
// 2 bfloat16). Returns a hipError_t (0: launched).
int aka_cumsum_rows(const void* x, void* y, int64_t M, int64_t N, int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "cumsum: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor cumsum(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "cumsum: x must be on the GPU");
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous(), "cumsum: x must be a contiguous matrix");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty_like(x);
  if (y.numel() == 0) return y;
  const int status = aka_cumsum_rows(x.data_ptr(), y.data_ptr(), x.size(0), x.size(1),
                                     dtype_code(x), at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_cumsum_rows failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("cumsum", &cumsum, "inclusive prefix sums along the rows, accumulated in float32");
}
