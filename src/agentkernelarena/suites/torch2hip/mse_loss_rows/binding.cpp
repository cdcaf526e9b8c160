// Python bindings for torch2hip/mse_loss_rows (pristine: not editable). The kernels and their
// launcher live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA
// API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the
// arena translates kernel.hip to CUDA. Checks the tensors, allocates the output, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// out[m] = mean over n of (pred[m, n] - target[m, n])^2 for contiguous M x N matrices pred and
// target and a vector out of length M, all of one dtype (0 float32, 1 float16, 2 bfloat16).
// Returns a hipError_t (0: launched).
int aka_mse_loss_rows(const void* pred, const void* target, void* out, int64_t M, int64_t N,
                      int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "mse_loss_rows: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor mse_loss_rows(torch::Tensor pred, torch::Tensor target) {
  TORCH_CHECK(pred.is_cuda() && target.device() == pred.device(),
              "mse_loss_rows: pred and target must be on one GPU");
  TORCH_CHECK(pred.dim() == 2 && pred.is_contiguous() && pred.size(1) > 0,
              "mse_loss_rows: pred must be a contiguous matrix with at least one column");
  TORCH_CHECK(target.sizes() == pred.sizes() && target.is_contiguous() &&
                  target.scalar_type() == pred.scalar_type(),
              "mse_loss_rows: target must be a contiguous matrix like pred");
  const c10::cuda::OptionalCUDAGuard guard(pred.device());
  auto out = torch::empty({pred.size(0)}, pred.options());
  if (out.numel() == 0) return out;
  const int status = aka_mse_loss_rows(pred.data_ptr(), target.data_ptr(), out.data_ptr(),
                                       pred.size(0), pred.size(1), dtype_code(pred),
                                       at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_mse_loss_rows failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("mse_loss_rows", &mse_loss_rows, "mean squared error of each row");
}
