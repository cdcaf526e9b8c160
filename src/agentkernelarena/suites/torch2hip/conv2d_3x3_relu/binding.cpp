// Python bindings for torch2hip/conv2d_3x3_relu (pristine: not editable). The kernels and
// their launcher live in kernel.hip, which includes no torch header. Written against PyTorch's
// CUDA API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA
// the arena translates kernel.hip to CUDA. Checks the tensors, allocates the output, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// y[n, o, i, j] = relu(b[o] + sum_{c, di, dj} w[o, c, di, dj] * x[n, c, i + di - 1, j + dj - 1])
// (zero padding, stride 1, float32 arithmetic) for contiguous x (N x Cin x H x W), w
// (Cout x Cin x 3 x 3), b (Cout) and y (N x Cout x H x W) of one dtype (1 float16,
// 2 bfloat16). Returns a hipError_t (0: launched).
int aka_conv2d_3x3_relu(const void* x, const void* w, const void* b, void* y, int64_t N,
                        int64_t Cin, int64_t Cout, int64_t H, int64_t W, int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default:
      TORCH_CHECK(false, "conv2d_3x3_relu: x must be float16 or bfloat16, not ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor conv2d_3x3_relu(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
  TORCH_CHECK(x.is_cuda() && w.device() == x.device() && b.device() == x.device(),
              "conv2d_3x3_relu: x, w and b must be on one GPU");
  TORCH_CHECK(x.dim() == 4 && x.is_contiguous(),
              "conv2d_3x3_relu: x must be a contiguous NCHW tensor");
  TORCH_CHECK(w.dim() == 4 && w.is_contiguous() && w.size(1) == x.size(1) && w.size(2) == 3 &&
                  w.size(3) == 3 && w.scalar_type() == x.scalar_type(),
              "conv2d_3x3_relu: w must be a contiguous Cout x Cin x 3 x 3 tensor of x's dtype");
  TORCH_CHECK(b.dim() == 1 && b.is_contiguous() && b.size(0) == w.size(0) &&
                  b.scalar_type() == x.scalar_type(),
              "conv2d_3x3_relu: b must be a contiguous vector of length Cout of x's dtype");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty({x.size(0), w.size(0), x.size(2), x.size(3)}, x.options());
  if (y.numel() == 0) return y;
  const int status = aka_conv2d_3x3_relu(x.data_ptr(), w.data_ptr(), b.data_ptr(), y.data_ptr(),
                                         x.size(0), x.size(1), w.size(0), x.size(2), x.size(3),
                                         dtype_code(x), at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_conv2d_3x3_relu failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("conv2d_3x3_relu", &conv2d_3x3_relu, "relu(conv2d(x, w, b, padding=1)), 3 x 3 kernel");
}
