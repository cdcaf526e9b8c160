// Python bindings for hip2hip/embedding_bag_sum (pristine: not editable). The kernels and
// their launcher live in kernel.hip, which includes no torch header. Written against
// PyTorch's CUDA API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP);
// on NVIDIA the arena translates kernel.hip to CUDA. Checks the tensors, allocates the
// output, calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// out[b, :] = sum of table[indices[j], :] over offsets[b] <= j < offsets[b + 1], accumulated
// in float32: table V x D and out B x D contiguous, one dtype (0 float32, 1 float16,
// 2 bfloat16); indices (L) and offsets (B + 1, offsets[0] = 0, offsets[B] = L,
// non-decreasing) int64. Returns a hipError_t (0: launched).
int aka_embedding_bag_sum(const void* table, const void* indices, const void* offsets, void* out,
                          int64_t B, int64_t D, int64_t V, int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "embedding_bag_sum: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor embedding_bag_sum(torch::Tensor table, torch::Tensor indices,
                                torch::Tensor offsets) {
  TORCH_CHECK(table.is_cuda() && indices.is_cuda() && offsets.is_cuda(),
              "embedding_bag_sum: tensors must be on the GPU");
  TORCH_CHECK(table.dim() == 2 && table.is_contiguous(),
              "embedding_bag_sum: table must be a contiguous matrix");
  TORCH_CHECK(indices.scalar_type() == torch::kInt64 && offsets.scalar_type() == torch::kInt64,
              "embedding_bag_sum: indices and offsets must be int64");
  TORCH_CHECK(indices.dim() == 1 && indices.is_contiguous() && offsets.dim() == 1 &&
                  offsets.is_contiguous() && offsets.size(0) >= 1,
              "embedding_bag_sum: indices and offsets must be contiguous vectors");
  const c10::cuda::OptionalCUDAGuard guard(table.device());
  const int64_t B = offsets.size(0) - 1, D = table.size(1);
  auto out = torch::empty({B, D}, table.options());
  if (out.numel() == 0) return out;
  const int status = aka_embedding_bag_sum(table.data_ptr(), indices.data_ptr(),
                                           offsets.data_ptr(), out.data_ptr(), B, D,
                                           table.size(0), dtype_code(table),
                                           at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_embedding_bag_sum failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("embedding_bag_sum", &embedding_bag_sum, "sum of embedding rows per bag (CSR offsets)");
}
