// Python bindings for torch2hip/scaled_masked_softmax (pristine: not editable). The kernels and
// their launcher live in kernel.hip, which includes no torch header. Written against PyTorch's
// CUDA API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA
// the arena translates kernel.hip to CUDA. Checks the tensors, allocates the output, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// y[b, h, q, :] = softmax over k of (scores[b, h, q, k] * scale, or -inf where mask[b, 0, q, k])
// for a contiguous B x H x S x S scores tensor, a contiguous B x 1 x S x S mask of bytes (0 or
// 1) and a B x H x S x S output y of scores' dtype (0 float32, 1 float16, 2 bfloat16). Returns
// a hipError_t (0: launched).
int aka_scaled_masked_softmax(const void* scores, const void* mask, void* y, int64_t B,
                              int64_t H, int64_t S, float scale, int dtype, void* stream);
}

namespace {

constexpr float kScale = 0.08838834764831845f;  // 1 / sqrt(128)

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "scaled_masked_softmax: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor scaled_masked_softmax(torch::Tensor scores, torch::Tensor mask) {
  TORCH_CHECK(scores.is_cuda() && mask.device() == scores.device(),
              "scaled_masked_softmax: scores and mask must be on one GPU");
  TORCH_CHECK(scores.dim() == 4 && scores.is_contiguous() && scores.size(2) == scores.size(3),
              "scaled_masked_softmax: scores must be a contiguous B x H x S x S tensor");
  TORCH_CHECK(mask.scalar_type() == torch::kBool && mask.dim() == 4 && mask.is_contiguous() &&
                  mask.size(0) == scores.size(0) && mask.size(1) == 1 &&
                  mask.size(2) == scores.size(2) && mask.size(3) == scores.size(3),
              "scaled_masked_softmax: mask must be a contiguous bool B x 1 x S x S tensor");
  const c10::cuda::OptionalCUDAGuard guard(scores.device());
  auto y = torch::empty_like(scores);
  if (y.numel() == 0) return y;
  const int status = aka_scaled_masked_softmax(
      scores.data_ptr(), mask.data_ptr(), y.data_ptr(), scores.size(0), scores.size(1),
      scores.size(2), kScale, dtype_code(scores), at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_scaled_masked_softmax failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("scaled_masked_softmax", &scaled_masked_softmax,
        "softmax over the keys of scaled attention scores, masked positions excluded");
}
