// Python bindings for torch2hip/cumsum_reverse (pristine: not editable). The kernels and their
// launcher live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA
// API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the
// arena translates kernel.hip to CUDA. Checks the tensor, allocates the output, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// y[m, j] = sum over k >= j of x[m, k] for contiguous M x N float32 matrices x and y. Returns
// a hipError_t (0: launched).
int aka_cumsum_reverse(const void* x, void* y, int64_t M, int64_t N, void* stream);
}

torch::Tensor cumsum_reverse(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "cumsum_reverse: x must be on the GPU");
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous(), "cumsum_reverse: x must be a contiguous matrix");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "cumsum_reverse: x must be float32");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty_like(x);
  if (y.numel() == 0) return y;
  const int status = aka_cumsum_reverse(x.data_ptr(), y.data_ptr(), x.size(0), x.size(1),
                                        at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_cumsum_reverse failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("cumsum_reverse", &cumsum_reverse, "inclusive suffix sums along the rows");
}
