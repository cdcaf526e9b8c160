// Python bindings for torch2hip/attention_block_causal (pristine: not editable). The kernels
// and their launcher live in kernel.hip, which includes no torch header. Written against
// PyTorch's CUDA API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP);
// on NVIDIA the arena translates kernel.hip to CUDA. Checks the tensors, allocates the output,
// calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

#include <cmath>

extern "C" {
// out[g, i, :] = sum over j <= i of p[j] * v[g, j, :], p = softmax over j <= i of
// scale * (q[g, i, :] . k[g, j, :]), for G = B * H contiguous S x D float16 matrices q, k, v
// and out (D <= 128), in float32 arithmetic. Returns a hipError_t (0: launched).
int aka_attention_causal(const void* q, const void* k, const void* v, void* out, int64_t G,
                         int64_t S, int64_t D, float scale, void* stream);
}

torch::Tensor attention_causal(torch::Tensor q, torch::Tensor k, torch::Tensor v) {
  TORCH_CHECK(q.is_cuda() && k.device() == q.device() && v.device() == q.device(),
              "attention_causal: q, k and v must be on one GPU");
  TORCH_CHECK(q.dim() == 4 && q.is_contiguous() && q.scalar_type() == torch::kFloat16,
              "attention_causal: q must be a contiguous B x H x S x D float16 tensor");
  TORCH_CHECK(k.sizes() == q.sizes() && v.sizes() == q.sizes() && k.is_contiguous() &&
                  v.is_contiguous() && k.scalar_type() == q.scalar_type() &&
                  v.scalar_type() == q.scalar_type(),
              "attention_causal: k and v must be contiguous tensors like q");
  TORCH_CHECK(q.size(3) > 0 && q.size(3) <= 128, "attention_causal: D must be in 1..128");
  const c10::cuda::OptionalCUDAGuard guard(q.device());
  auto out = torch::empty_like(q);
  if (out.numel() == 0) return out;
  const float scale = 1.0f / std::sqrt(static_cast<float>(q.size(3)));
  const int status = aka_attention_causal(q.data_ptr(), k.data_ptr(), v.data_ptr(),
                                          out.data_ptr(), q.size(0) * q.size(1), q.size(2),
                                          q.size(3), scale,
                                          at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_attention_causal failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("attention_causal", &attention_causal, "causal softmax(q k^T / sqrt(D)) v, float16");
}
