// Python bindings for torch2cuda/sigmoid_focal_loss (pristine: not editable). The kernels and
// their launcher live in kernel.cu, which includes no torch header; this file checks the
// tensors, allocates the output and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// loss[i] = alpha_t * ce * (1 - p_t)^gamma for the n elements of contiguous arrays x (logits)
// and t (targets), with p = sigmoid(x[i]), ce = max(x, 0) - x t + log(1 + exp(-|x|)),
// p_t = p t + (1 - p)(1 - t), alpha_t = alpha t + (1 - alpha)(1 - t); x, t and loss of one
// dtype (0 float32, 1 float16, 2 bfloat16). Returns a cudaError_t (0: launched).
int aka_sigmoid_focal_loss(const void* x, const void* t, void* loss, int64_t n, float alpha,
                           float gamma, int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "sigmoid_focal_loss: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor sigmoid_focal_loss(torch::Tensor x, torch::Tensor t, double alpha, double gamma) {
  TORCH_CHECK(x.is_cuda() && t.is_cuda() && x.device() == t.device(),
              "sigmoid_focal_loss: logits and targets must be on one GPU");
  TORCH_CHECK(x.is_contiguous() && t.is_contiguous() && x.sizes() == t.sizes(),
              "sigmoid_focal_loss: logits and targets must be contiguous, of one shape");
  TORCH_CHECK(x.scalar_type() == t.scalar_type(),
              "sigmoid_focal_loss: logits and targets must have one dtype");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto loss = torch::empty_like(x);
  if (loss.numel() == 0) return loss;
  const int status = aka_sigmoid_focal_loss(
      x.data_ptr(), t.data_ptr(), loss.data_ptr(), x.numel(), static_cast<float>(alpha),
      static_cast<float>(gamma), dtype_code(x), at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_sigmoid_focal_loss failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return loss;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("sigmoid_focal_loss", &sigmoid_focal_loss, "sigmoid focal loss, reduction none");
}
