// Python bindings for torch2cuda/attention_sdpa (pristine: not editable). The kernels and their
// launcher live in kernel.cu, which includes no torch header; this file checks the tensors,
// allocates the output and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// o[bh, i, :] = sum_j p[i, j] * v[bh, j, :] with p[i, :] = softmax_j(scale * q[bh, i, :] .
// k[bh, j, :]) (no mask), in float32, for contiguous BH x S x D arrays q, k, v and o of one
// dtype (1 float16, 2 bfloat16), D <= 128. Returns a cudaError_t (0: launched).
int aka_attention(const void* q, const void* k, const void* v, void* o, int64_t BH, int64_t S,
                  int64_t D, float scale, int dtype, void* stream);
}

torch::Tensor attention(torch::Tensor q, torch::Tensor k, torch::Tensor v, double scale) {
  TORCH_CHECK(q.is_cuda() && k.is_cuda() && v.is_cuda() && q.device() == k.device() &&
                  q.device() == v.device(),
              "attention: q, k and v must be on one GPU");
  TORCH_CHECK(q.dim() == 4 && q.is_contiguous() && k.is_contiguous() && v.is_contiguous() &&
                  k.sizes() == q.sizes() && v.sizes() == q.sizes(),
              "attention: q, k and v must be contiguous B x H x S x D tensors of one shape");
  TORCH_CHECK(q.scalar_type() == k.scalar_type() && q.scalar_type() == v.scalar_type() &&
                  (q.scalar_type() == torch::kFloat16 || q.scalar_type() == torch::kBFloat16),
              "attention: q, k and v must all be float16 or all bfloat16");
  TORCH_CHECK(q.size(3) >= 1 && q.size(3) <= 128, "attention: head dim must be 1 to 128");
  const c10::cuda::OptionalCUDAGuard guard(q.device());
  auto o = torch::empty_like(q);
  if (o.numel() == 0) return o;
  const int dtype = q.scalar_type() == torch::kFloat16 ? 1 : 2;
  const int status = aka_attention(q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(),
                                   q.size(0) * q.size(1), q.size(2), q.size(3),
                                   static_cast<float>(scale), dtype,
                                   at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_attention failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return o;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("attention", &attention, "non-causal scaled dot-product attention, B x H x S x D");
}
