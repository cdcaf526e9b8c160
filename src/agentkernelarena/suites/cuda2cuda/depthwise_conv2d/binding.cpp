// Python bindings for cuda2cuda/depthwise_conv2d (pristine: not editable). The kernels and
// their launcher live in kernel.cu, which includes no torch header; this file checks the
// tensors, allocates the output and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// y = depthwise conv2d of x (contiguous N x C x H x W) with w (C x K x K, K odd), stride 1,
// zero padding K / 2, y of x's shape; x, w, y of one dtype (0 float32, 1 float16,
// 2 bfloat16), accumulated in float32. Returns a cudaError_t (0: launched).
int aka_depthwise_conv2d(const void* x, const void* w, void* y, int64_t N, int64_t C,
                         int64_t H, int64_t W, int64_t K, int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "depthwise_conv2d: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor depthwise_conv2d(torch::Tensor x, torch::Tensor w) {
  TORCH_CHECK(x.is_cuda() && w.is_cuda() && x.device() == w.device(),
              "depthwise_conv2d: x and w must be on one GPU");
  TORCH_CHECK(x.dim() == 4 && x.is_contiguous(),
              "depthwise_conv2d: x must be a contiguous N x C x H x W tensor");
  TORCH_CHECK(w.dim() == 3 && w.is_contiguous() && w.size(0) == x.size(1) &&
                  w.size(1) == w.size(2),
              "depthwise_conv2d: w must be a contiguous C x K x K tensor");
  const int64_t K = w.size(2);
  TORCH_CHECK(K == 3 || K == 5 || K == 7, "depthwise_conv2d: K must be 3, 5 or 7");
  TORCH_CHECK(w.scalar_type() == x.scalar_type(), "depthwise_conv2d: x and w must have one dtype");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty_like(x);
  if (y.numel() == 0) return y;
  const int status = aka_depthwise_conv2d(x.data_ptr(), w.data_ptr(), y.data_ptr(), x.size(0),
                                          x.size(1), x.size(2), x.size(3), K, dtype_code(x),
                                          at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_depthwise_conv2d failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("depthwise_conv2d", &depthwise_conv2d,
        "depthwise 2-D convolution, stride 1, same padding, NCHW");
}
