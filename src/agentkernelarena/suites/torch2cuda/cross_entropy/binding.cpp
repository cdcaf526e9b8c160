// Python bindings for torch2cuda/cross_entropy (pristine: not editable). The kernels and their
// launcher live in kernel.cu, which includes no torch header; this file checks the tensors,
// allocates the output and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// loss[m] = logsumexp(logits[m, :]) - logits[m, targets[m]] in float32, or 0 where
// targets[m] == ignore_index, for a contiguous M x V matrix logits of dtype `dtype` (0 float32,
// 1 float16, 2 bfloat16), M int64 targets (each in [0, V) or ignore_index) and a float32
// vector loss of M. Returns a cudaError_t (0: launched).
int aka_cross_entropy(const void* logits, const void* targets, void* loss, int64_t M, int64_t V,
                      int64_t ignore_index, int dtype, void* stream);
}

namespace {

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

torch::Tensor cross_entropy(torch::Tensor logits, torch::Tensor targets, int64_t ignore_index) {
  TORCH_CHECK(logits.is_cuda() && targets.is_cuda() && logits.device() == targets.device(),
              "cross_entropy: logits and targets must be on one GPU");
  TORCH_CHECK(logits.dim() == 2 && logits.is_contiguous(),
              "cross_entropy: logits must be a contiguous matrix");
  TORCH_CHECK(targets.dim() == 1 && targets.is_contiguous() &&
                  targets.scalar_type() == torch::kInt64 && targets.size(0) == logits.size(0),
              "cross_entropy: targets must be a contiguous int64 vector of logits.size(0)");
  const c10::cuda::OptionalCUDAGuard guard(logits.device());
  auto loss = torch::empty({logits.size(0)}, logits.options().dtype(torch::kFloat32));
  if (loss.numel() == 0) return loss;
  TORCH_CHECK(logits.size(1) > 0, "cross_entropy: logits must have at least one class");
  const int status = aka_cross_entropy(logits.data_ptr(), targets.data_ptr(), loss.data_ptr(),
                                       logits.size(0), logits.size(1), ignore_index,
                                       dtype_code(logits),
                                       at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_cross_entropy failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return loss;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("cross_entropy", &cross_entropy,
        "per-row cross-entropy (float32) of logits against int64 targets with an ignore index");
}
