// Python bindings for hip2hip/moe_topk_softmax (pristine: not editable). The kernels and
// their launcher live in kernel.hip, which includes no torch header. Written against
// PyTorch's CUDA API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP);
// on NVIDIA the arena translates kernel.hip to CUDA. Checks the tensor, allocates the outputs,
// fills the preallocated outputs
// (as vLLM's topk_softmax does) through the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

#include <tuple>

extern "C" {
// MoE gating for a contiguous T x E logits matrix (0 float32, 1 float16, 2 bfloat16):
// p = softmax(logits[t]) over the E experts, the K largest p in descending order, their ids
// into ids[t, :] (int32) and their renormalized values p / (sum of the K) into weights[t, :]
// (float32). 1 <= K <= min(E, 32), E <= 1024. Returns a hipError_t (0: launched).
int aka_moe_topk_softmax(const void* logits, void* weights, void* ids, int64_t T, int64_t E,
                         int64_t K, int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "moe_topk_softmax: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

std::tuple<torch::Tensor, torch::Tensor> moe_topk_softmax(torch::Tensor logits,
                                                          torch::Tensor topk_weights,
                                                          torch::Tensor topk_ids) {
  TORCH_CHECK(logits.is_cuda() && topk_weights.is_cuda() && topk_ids.is_cuda(),
              "moe_topk_softmax: tensors must be on the GPU");
  TORCH_CHECK(logits.dim() == 2 && logits.is_contiguous(),
              "moe_topk_softmax: logits must be a contiguous T x E matrix");
  const int64_t T = logits.size(0), E = logits.size(1);
  TORCH_CHECK(topk_weights.dim() == 2 && topk_weights.is_contiguous() &&
                  topk_weights.scalar_type() == torch::kFloat32 && topk_weights.size(0) == T,
              "moe_topk_softmax: topk_weights must be a contiguous T x K float32 matrix");
  const int64_t top_k = topk_weights.size(1);
  TORCH_CHECK(topk_ids.dim() == 2 && topk_ids.is_contiguous() &&
                  topk_ids.scalar_type() == torch::kInt32 && topk_ids.size(0) == T &&
                  topk_ids.size(1) == top_k,
              "moe_topk_softmax: topk_ids must be a contiguous T x K int32 matrix");
  TORCH_CHECK(E >= 1 && E <= 1024, "moe_topk_softmax: 1 <= E <= 1024 experts");
  TORCH_CHECK(top_k >= 1 && top_k <= E && top_k <= 32, "moe_topk_softmax: 1 <= K <= min(E, 32)");
  const c10::cuda::OptionalCUDAGuard guard(logits.device());
  if (T > 0) {
    const int status = aka_moe_topk_softmax(logits.data_ptr(), topk_weights.data_ptr(),
                                            topk_ids.data_ptr(), T, E, top_k, dtype_code(logits),
                                            at::cuda::getCurrentCUDAStream().stream());
    TORCH_CHECK(status == 0, "aka_moe_topk_softmax failed: ",
                cudaGetErrorString(static_cast<cudaError_t>(status)));
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  }
  return {topk_weights, topk_ids};
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("moe_topk_softmax", &moe_topk_softmax,
        "MoE gating: softmax over experts, top-k, renormalized weights and int32 ids");
}
