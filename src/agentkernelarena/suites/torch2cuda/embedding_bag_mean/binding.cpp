// Python bindings for torch2cuda/embedding_bag_mean (pristine: not editable). The kernels and
// their launcher live in kernel.cu, which includes no torch header; this file checks the
// tensors, allocates the output and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// out[b, :] = mean of weight[indices[j], :] for offsets[b] <= j < end(b), end(b) = offsets[b + 1]
// (total for the last bag); zeros for an empty bag. weight is a contiguous V x D array and out a
// contiguous B x D array of one dtype (0 float32, 1 float16, 2 bfloat16), indices `total` int64
// values in [0, V), offsets B non-decreasing int64 values in [0, total] with offsets[0] = 0.
// Sums in float32. Returns a cudaError_t (0: launched).
int aka_embedding_bag_mean(const void* weight, const void* indices, const void* offsets,
                           void* out, int64_t D, int64_t B, int64_t total, int dtype,
                           void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "embedding_bag_mean: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor embedding_bag_mean(torch::Tensor weight, torch::Tensor indices,
                                 torch::Tensor offsets) {
  TORCH_CHECK(weight.is_cuda() && indices.is_cuda() && offsets.is_cuda() &&
                  weight.device() == indices.device() && weight.device() == offsets.device(),
              "embedding_bag_mean: weight, indices and offsets must be on one GPU");
  TORCH_CHECK(weight.dim() == 2 && weight.is_contiguous(),
              "embedding_bag_mean: weight must be a contiguous V x D matrix");
  TORCH_CHECK(indices.dim() == 1 && indices.is_contiguous() &&
                  indices.scalar_type() == torch::kInt64,
              "embedding_bag_mean: indices must be a contiguous int64 vector");
  TORCH_CHECK(offsets.dim() == 1 && offsets.is_contiguous() &&
                  offsets.scalar_type() == torch::kInt64 && offsets.size(0) >= 1,
              "embedding_bag_mean: offsets must be a non-empty contiguous int64 vector");
  const c10::cuda::OptionalCUDAGuard guard(weight.device());
  auto out = torch::empty({offsets.size(0), weight.size(1)}, weight.options());
  if (out.numel() == 0) return out;
  const int status = aka_embedding_bag_mean(
      weight.data_ptr(), indices.data_ptr(), offsets.data_ptr(), out.data_ptr(), weight.size(1),
      offsets.size(0), indices.size(0), dtype_code(weight),
      at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_embedding_bag_mean failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("embedding_bag_mean", &embedding_bag_mean,
        "EmbeddingBag(mode='mean') with offsets: the mean embedding row of each bag");
}
