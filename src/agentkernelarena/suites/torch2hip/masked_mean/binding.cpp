// Python bindings for torch2hip/masked_mean (pristine: not editable). The kernels and their
// launcher live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA
// API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the
// arena translates kernel.hip to CUDA. Checks the tensors, allocates the output, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// y[b, d] = sum_s mask[b, s] * x[b, s, d] / max(1, sum_s mask[b, s]) for a contiguous
// B x S x D tensor x (dtype 0 float32, 1 float16, 2 bfloat16), a contiguous B x S mask of
// bytes (0 or 1) and a B x D output y of x's dtype. Returns a hipError_t (0: launched).
int aka_masked_mean(const void* x, const void* mask, void* y, int64_t B, int64_t S, int64_t D,
                    int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "masked_mean: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor masked_mean(torch::Tensor x, torch::Tensor mask) {
  TORCH_CHECK(x.is_cuda() && mask.is_cuda() && x.device() == mask.device(),
              "masked_mean: x and mask must be on one GPU");
  TORCH_CHECK(x.dim() == 3 && x.is_contiguous(), "masked_mean: x must be a contiguous B x S x D");
  TORCH_CHECK(mask.scalar_type() == torch::kBool && mask.dim() == 2 && mask.is_contiguous() &&
                  mask.size(0) == x.size(0) && mask.size(1) == x.size(1),
              "masked_mean: mask must be a contiguous bool B x S tensor");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty({x.size(0), x.size(2)}, x.options());
  if (y.numel() == 0) return y;
  const int status = aka_masked_mean(x.data_ptr(), mask.data_ptr(), y.data_ptr(), x.size(0),
                                     x.size(1), x.size(2), dtype_code(x),
                                     at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_masked_mean failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("masked_mean", &masked_mean, "mean over the sequence of the positions the mask keeps");
}
