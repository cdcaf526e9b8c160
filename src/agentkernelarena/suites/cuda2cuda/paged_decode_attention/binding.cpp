// Python bindings for cuda2cuda/paged_decode_attention (pristine: not editable). The kernels
// and their launcher live in kernel.cu, which includes no torch header; this file checks the
// tensors, allocates the output and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// Decode attention of one query per sequence against a paged KV cache, head dim 64, float16:
// q (B x H x 64), k_cache and v_cache (num_blocks x block_size x H x 64), block_table
// (B x max_blocks int32: the cache blocks of each sequence, in order), seq_lens (B int32,
// 1 <= seq_lens[b] <= max_blocks * block_size), out (B x H x 64). Scores scaled by `scale`,
// softmax in float32. Returns a cudaError_t (0: launched).
int aka_paged_decode_attention(const void* q, const void* k_cache, const void* v_cache,
                               const void* block_table, const void* seq_lens, void* out,
                               int64_t B, int64_t H, int64_t num_blocks, int64_t block_size,
                               int64_t max_blocks, float scale, void* stream);
}

torch::Tensor paged_decode_attention(torch::Tensor q, torch::Tensor k_cache,
                                     torch::Tensor v_cache, torch::Tensor block_table,
                                     torch::Tensor seq_lens) {
  for (const auto& t : {q, k_cache, v_cache, block_table, seq_lens}) {
    TORCH_CHECK(t.is_cuda() && t.device() == q.device(),
                "paged_decode_attention: all tensors must be on one GPU");
    TORCH_CHECK(t.is_contiguous(), "paged_decode_attention: all tensors must be contiguous");
  }
  TORCH_CHECK(q.scalar_type() == torch::kFloat16 && k_cache.scalar_type() == torch::kFloat16 &&
                  v_cache.scalar_type() == torch::kFloat16,
              "paged_decode_attention: q, k_cache and v_cache must be float16");
  TORCH_CHECK(block_table.scalar_type() == torch::kInt32 &&
                  seq_lens.scalar_type() == torch::kInt32,
              "paged_decode_attention: block_table and seq_lens must be int32");
  TORCH_CHECK(q.dim() == 3 && q.size(2) == 64, "paged_decode_attention: q must be B x H x 64");
  TORCH_CHECK(k_cache.dim() == 4 && k_cache.sizes() == v_cache.sizes() &&
                  k_cache.size(2) == q.size(1) && k_cache.size(3) == 64,
              "paged_decode_attention: caches must be num_blocks x block_size x H x 64");
  TORCH_CHECK(block_table.dim() == 2 && block_table.size(0) == q.size(0) &&
                  seq_lens.dim() == 1 && seq_lens.size(0) == q.size(0),
              "paged_decode_attention: block_table (B x max_blocks), seq_lens (B)");
  const c10::cuda::OptionalCUDAGuard guard(q.device());
  auto out = torch::empty_like(q);
  if (out.numel() == 0) return out;
  const int status = aka_paged_decode_attention(
      q.data_ptr(), k_cache.data_ptr(), v_cache.data_ptr(), block_table.data_ptr(),
      seq_lens.data_ptr(), out.data_ptr(), q.size(0), q.size(1), k_cache.size(0),
      k_cache.size(1), block_table.size(1), 0.125f, at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_paged_decode_attention failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("paged_decode_attention", &paged_decode_attention,
        "single-query attention per sequence over a paged KV cache");
}
