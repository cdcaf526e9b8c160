// Python bindings for torch2cuda/cumsum_rows (pristine: not editable). The kernels and their
// launcher live in kernel.cu, which includes no torch header; this file checks the tensor,
// allocates the output and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// y[m, n] = x[m, 0] + ... + x[m, n] accumulated in float32, for contiguous M x N arrays x and y
// of one 16-bit dtype (1 float16, 2 bfloat16). Returns a cudaError_t (0: launched).
int aka_cumsum_rows(const void* x, void* y, int64_t M, int64_t N, int dtype, void* stream);
}

torch::Tensor cumsum_rows(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "cumsum_rows: x must be on a GPU");
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous(), "cumsum_rows: x must be a contiguous matrix");
  TORCH_CHECK(x.scalar_type() == torch::kFloat16 || x.scalar_type() == torch::kBFloat16,
              "cumsum_rows: x must be float16 or bfloat16");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty_like(x);
  if (y.numel() == 0) return y;
  const int dtype = x.scalar_type() == torch::kFloat16 ? 1 : 2;
  const int status = aka_cumsum_rows(x.data_ptr(), y.data_ptr(), x.size(0), x.size(1), dtype,
                                     at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_cumsum_rows failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("cumsum_rows", &cumsum_rows, "inclusive prefix sum along the last dimension (float32 "
        "accumulation)");
}
