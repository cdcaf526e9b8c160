// Python bindings for torch2cuda/moe_gating_topk (pristine: not editable). The kernels and their
// launcher live in kernel.cu, which includes no torch header; this file checks the tensors,
// allocates the outputs and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// For each row t of a contiguous T x E matrix of router logits (dtype 0 float32, 1 float16,
// 2 bfloat16): p = softmax(logits[t, :]) in float32; combine[t, e] = p[e] / (sum of the k
// largest p) for the k experts e of the largest p (ties: the lower expert first), 0 for the
// others. combine is a contiguous T x E float32 array. Returns a cudaError_t (0: launched).
int aka_moe_gating_topk(const void* logits, void* combine, int64_t T, int64_t E, int64_t k,
                        int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "moe_gating_topk: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor moe_gating_topk(torch::Tensor logits, int64_t top_k) {
  TORCH_CHECK(logits.is_cuda(), "moe_gating_topk: logits must be on a GPU");
  TORCH_CHECK(logits.dim() == 2 && logits.is_contiguous(),
              "moe_gating_topk: logits must be a contiguous T x E matrix");
  TORCH_CHECK(top_k >= 1 && top_k <= logits.size(1) && logits.size(1) <= 1024,
              "moe_gating_topk: need 1 <= top_k <= E <= 1024");
  const c10::cuda::OptionalCUDAGuard guard(logits.device());
  auto combine = torch::empty(logits.sizes(), logits.options().dtype(torch::kFloat32));
  if (combine.numel() == 0) return combine;
  const int status = aka_moe_gating_topk(logits.data_ptr(), combine.data_ptr(), logits.size(0),
                                         logits.size(1), top_k, dtype_code(logits),
                                         at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_moe_gating_topk failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return combine;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("moe_gating_topk", &moe_gating_topk,
        "softmax, top-k and renormalization of router logits, as a dense float32 combine "
        "matrix");
}
