// Python bindings for torch2cuda/kl_div_rows (pristine: not editable). The kernels and their
// launcher live in kernel.cu, which includes no torch header; this file checks the tensors,
// allocates the output and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// out[m] = sum_n p[n] * (log p[n] - log q[n]) with p = softmax(target[m, :]) and
// q = softmax(logits[m, :]), for contiguous M x N matrices logits and target and an output
// vector of M, all of one dtype (0 float32, 1 float16, 2 bfloat16). Returns a cudaError_t
// (0: launched).
int aka_kl_div_rows(const void* logits, const void* target, void* out, int64_t M, int64_t N,
                    int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "kl_div_rows: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor kl_div_rows(torch::Tensor logits, torch::Tensor target) {
  TORCH_CHECK(logits.is_cuda() && target.is_cuda() && logits.device() == target.device(),
              "kl_div_rows: logits and target must be on one GPU");
  TORCH_CHECK(logits.dim() == 2 && logits.is_contiguous() && target.is_contiguous() &&
                  logits.sizes() == target.sizes(),
              "kl_div_rows: logits and target must be contiguous matrices of one shape");
  TORCH_CHECK(logits.scalar_type() == target.scalar_type(),
              "kl_div_rows: logits and target must have one dtype");
  TORCH_CHECK(logits.size(1) > 0, "kl_div_rows: rows must not be empty");
  const c10::cuda::OptionalCUDAGuard guard(logits.device());
  auto out = torch::empty({logits.size(0)}, logits.options());
  if (out.numel() == 0) return out;
  const int status = aka_kl_div_rows(logits.data_ptr(), target.data_ptr(), out.data_ptr(),
                                     logits.size(0), logits.size(1), dtype_code(logits),
                                     at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_kl_div_rows failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("kl_div_rows", &kl_div_rows, "per-row KL(softmax(target) || softmax(logits))");
}
