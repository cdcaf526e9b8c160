// Python bindings for torch2hip/huber_loss (pristine: not editable). The kernels and their
// launcher live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA
// API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the
// arena translates kernel.hip to CUDA. Checks the tensors, allocates the output, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// out[i] = 0.5 * d^2 if |d| < delta else delta * (|d| - 0.5 * delta), d = pred[i] - target[i],
// for contiguous arrays of n elements of one dtype (0 float32, 1 float16, 2 bfloat16).
// Returns a hipError_t (0: launched).
int aka_huber_loss(const void* pred, const void* target, void* out, int64_t n, float delta,
                   int dtype, void* stream);
}

namespace {

constexpr float kDelta = 0.5f;

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "huber_loss: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor huber_loss(torch::Tensor pred, torch::Tensor target) {
  TORCH_CHECK(pred.is_cuda() && target.device() == pred.device(),
              "huber_loss: pred and target must be on one GPU");
  TORCH_CHECK(pred.is_contiguous() && target.is_contiguous() && target.sizes() == pred.sizes() &&
                  target.scalar_type() == pred.scalar_type(),
              "huber_loss: pred and target must be contiguous tensors of one shape and dtype");
  const c10::cuda::OptionalCUDAGuard guard(pred.device());
  auto out = torch::empty_like(pred);
  if (out.numel() == 0) return out;
  const int status = aka_huber_loss(pred.data_ptr(), target.data_ptr(), out.data_ptr(),
                                    pred.numel(), kDelta, dtype_code(pred),
                                    at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_huber_loss failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("huber_loss", &huber_loss, "elementwise Huber loss, delta 0.5");
}
