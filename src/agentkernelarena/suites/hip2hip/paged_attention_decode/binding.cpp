// Python bindings for hip2hip/paged_attention_decode (pristine: not editable). The kernels and
// their launcher live in kernel.hip, which includes no torch header. Written against PyTorch's
// CUDA API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA
// the arena translates kernel.hip to CUDA. Checks the tensors, allocates the output, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// Decode attention over a paged KV cache: q B x Hq x D, k_cache and v_cache NB x BS x Hkv x D
// (one dtype: 1 float16, 2 bfloat16), block_tables B x MB int32, context_lens B int32 (each in
// [1, MB * BS]); out B x Hq x D in q's dtype; Hq a multiple of Hkv, D 64 or 128,
// MB * BS <= 8192. Returns a hipError_t (0: launched).
int aka_paged_attention_decode(const void* q, const void* k_cache, const void* v_cache,
                               const void* block_tables, const void* context_lens, void* out,
                               int64_t B, int64_t Hq, int64_t Hkv, int64_t D, int64_t NB,
                               int64_t BS, int64_t MB, int dtype, void* stream);
}

torch::Tensor paged_attention_decode(torch::Tensor q, torch::Tensor k_cache,
                                     torch::Tensor v_cache, torch::Tensor block_tables,
                                     torch::Tensor context_lens) {
  TORCH_CHECK(q.is_cuda() && k_cache.is_cuda() && v_cache.is_cuda() && block_tables.is_cuda() &&
                  context_lens.is_cuda(),
              "paged_attention_decode: tensors must be on the GPU");
  TORCH_CHECK(q.dim() == 3 && q.is_contiguous(), "paged_attention_decode: q must be B x Hq x D");
  TORCH_CHECK(k_cache.dim() == 4 && k_cache.is_contiguous() && v_cache.sizes() == k_cache.sizes() &&
                  v_cache.is_contiguous(),
              "paged_attention_decode: caches must be contiguous NB x BS x Hkv x D");
  TORCH_CHECK(k_cache.scalar_type() == q.scalar_type() && v_cache.scalar_type() == q.scalar_type(),
              "paged_attention_decode: q and the caches must share a dtype");
  TORCH_CHECK(block_tables.dim() == 2 && block_tables.is_contiguous() &&
                  block_tables.scalar_type() == torch::kInt32 &&
                  block_tables.size(0) == q.size(0),
              "paged_attention_decode: block_tables must be a contiguous B x MB int32 matrix");
  TORCH_CHECK(context_lens.dim() == 1 && context_lens.is_contiguous() &&
                  context_lens.scalar_type() == torch::kInt32 &&
                  context_lens.size(0) == q.size(0),
              "paged_attention_decode: context_lens must be a contiguous int32 vector of B");
  const int64_t Hq = q.size(1), D = q.size(2), Hkv = k_cache.size(2);
  TORCH_CHECK(k_cache.size(3) == D && (D == 64 || D == 128), "paged_attention_decode: D 64/128");
  TORCH_CHECK(Hkv > 0 && Hq % Hkv == 0, "paged_attention_decode: Hq must be a multiple of Hkv");
  TORCH_CHECK(block_tables.size(1) * k_cache.size(1) <= 8192,
              "paged_attention_decode: at most 8192 tokens per sequence");
  int dtype = 0;
  if (q.scalar_type() == torch::kFloat16) {
    dtype = 1;
  } else if (q.scalar_type() == torch::kBFloat16) {
    dtype = 2;
  } else {
    TORCH_CHECK(false, "paged_attention_decode: unsupported dtype ", q.scalar_type());
  }
  const c10::cuda::OptionalCUDAGuard guard(q.device());
  auto out = torch::empty_like(q);
  if (out.numel() == 0) return out;
  const int status = aka_paged_attention_decode(
      q.data_ptr(), k_cache.data_ptr(), v_cache.data_ptr(), block_tables.data_ptr(),
      context_lens.data_ptr(), out.data_ptr(), q.size(0), Hq, Hkv, D, k_cache.size(0),
      k_cache.size(1), block_tables.size(1), dtype, at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_paged_attention_decode failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("paged_attention_decode", &paged_attention_decode,
        "single-query attention over a paged KV cache (GQA)");
}
