// Python bindings for hip2hip/max_pool2d (pristine: not editable). The kernels and their
// launcher live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA
// API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the
// arena translates kernel.hip to CUDA. Checks the tensor, allocates the output, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// 3x3 max pooling, stride 2, padding 1 (padding never wins), of a contiguous NCHW tensor x
// (N * C planes of H x W) into y (N * C planes of Ho x Wo, Ho = (H - 1) / 2 + 1, Wo likewise),
// one dtype (0 float32, 1 float16, 2 bfloat16). Returns a hipError_t (0: launched).
int aka_max_pool2d(const void* x, void* y, int64_t planes, int64_t H, int64_t W, int64_t Ho,
                   int64_t Wo, int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "max_pool2d: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor max_pool2d(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "max_pool2d: x must be on the GPU");
  TORCH_CHECK(x.dim() == 4 && x.is_contiguous(), "max_pool2d: x must be a contiguous NCHW tensor");
  const int64_t H = x.size(2), W = x.size(3);
  TORCH_CHECK(H >= 1 && W >= 1, "max_pool2d: empty planes");
  const int64_t Ho = (H - 1) / 2 + 1, Wo = (W - 1) / 2 + 1;
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty({x.size(0), x.size(1), Ho, Wo}, x.options());
  if (y.numel() == 0) return y;
  const int status = aka_max_pool2d(x.data_ptr(), y.data_ptr(), x.size(0) * x.size(1), H, W, Ho,
                                    Wo, dtype_code(x), at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_max_pool2d failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("max_pool2d", &max_pool2d, "3x3 max pooling, stride 2, padding 1, NCHW");
}
