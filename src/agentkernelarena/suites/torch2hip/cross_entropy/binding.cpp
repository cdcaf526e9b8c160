// Python bindings for torch2hip/cross_entropy (pristine: not editable). The kernels and their
// launcher live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA
// API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the
// arena translates kernel.hip to CUDA. Checks the tensors, allocates the output, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// loss[m] = logsumexp(logits[m, :]) - logits[m, targets[m]], or 0 where targets[m] ==
// ignore_index, computed in float32, for a contiguous M x V logits matrix (dtype 0 float32,
// 1 float16, 2 bfloat16), M int64 targets and M losses of the logits' dtype. Returns a
// hipError_t (0: launched).
int aka_cross_entropy(const void* logits, const void* targets, void* loss, int64_t M, int64_t V,
                      int64_t ignore_index, int dtype, void* stream);
}

namespace {

constexpr int64_t kIgnoreIndex = -100;

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "cross_entropy: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor cross_entropy(torch::Tensor logits, torch::Tensor targets) {
  TORCH_CHECK(logits.is_cuda() && targets.device() == logits.device(),
              "cross_entropy: logits and targets must be on one GPU");
  TORCH_CHECK(logits.dim() == 2 && logits.is_contiguous() && logits.size(1) > 0,
              "cross_entropy: logits must be a contiguous M x V matrix, V > 0");
  TORCH_CHECK(targets.scalar_type() == torch::kInt64 && targets.dim() == 1 &&
                  targets.is_contiguous() && targets.size(0) == logits.size(0),
              "cross_entropy: targets must be a contiguous int64 vector of length M");
  const c10::cuda::OptionalCUDAGuard guard(logits.device());
  auto loss = torch::empty({logits.size(0)}, logits.options());
  if (loss.numel() == 0) return loss;
  const int status = aka_cross_entropy(logits.data_ptr(), targets.data_ptr(), loss.data_ptr(),
                                       logits.size(0), logits.size(1), kIgnoreIndex,
                                       dtype_code(logits),
                                       at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_cross_entropy failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return loss;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("cross_entropy", &cross_entropy, "per-row cross-entropy of logits (ignore index -100)");
}
