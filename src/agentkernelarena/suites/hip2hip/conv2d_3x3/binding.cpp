// Python bindings for hip2hip/conv2d_3x3 (pristine: not editable). The kernels and their
// launcher live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA
// API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the
// arena translates kernel.hip to CUDA. Checks the tensors, allocates the output, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// Dense 3x3 convolution, stride 1, padding 1, with bias: x N x C x H x W, weight K x C x 3 x 3,
// bias K, y N x K x H x W, all contiguous and of one dtype (1 float16, 2 bfloat16), float32
// accumulation. Returns a hipError_t (0: launched).
int aka_conv2d_3x3(const void* x, const void* weight, const void* bias, void* y, int64_t N,
                   int64_t C, int64_t K, int64_t H, int64_t W, int dtype, void* stream);
}

torch::Tensor conv2d_3x3(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
  TORCH_CHECK(x.is_cuda() && weight.is_cuda() && bias.is_cuda(),
              "conv2d_3x3: tensors must be on the GPU");
  TORCH_CHECK(x.dim() == 4 && x.is_contiguous(), "conv2d_3x3: x must be a contiguous NCHW tensor");
  TORCH_CHECK(weight.dim() == 4 && weight.is_contiguous() && weight.size(1) == x.size(1) &&
                  weight.size(2) == 3 && weight.size(3) == 3,
              "conv2d_3x3: weight must be a contiguous K x C x 3 x 3 tensor");
  TORCH_CHECK(bias.dim() == 1 && bias.is_contiguous() && bias.size(0) == weight.size(0),
              "conv2d_3x3: bias must be a contiguous vector of K");
  TORCH_CHECK(weight.scalar_type() == x.scalar_type() && bias.scalar_type() == x.scalar_type(),
              "conv2d_3x3: x, weight and bias must share a dtype");
  int dtype = 0;
  if (x.scalar_type() == torch::kFloat16) {
    dtype = 1;
  } else if (x.scalar_type() == torch::kBFloat16) {
    dtype = 2;
  } else {
    TORCH_CHECK(false, "conv2d_3x3: unsupported dtype ", x.scalar_type());
  }
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty({x.size(0), weight.size(0), x.size(2), x.size(3)}, x.options());
  if (y.numel() == 0) return y;
  const int status = aka_conv2d_3x3(x.data_ptr(), weight.data_ptr(), bias.data_ptr(),
                                    y.data_ptr(), x.size(0), x.size(1), weight.size(0),
                                    x.size(2), x.size(3), dtype,
                                    at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_conv2d_3x3 failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("conv2d_3x3", &conv2d_3x3, "3x3 convolution, stride 1, padding 1, with bias, NCHW");
}
