// Python bindings for torch2cuda/masked_softmax (pristine: not editable). The kernels and their
// launcher live in kernel.cu, which includes no torch header; this file checks the tensors,
// allocates the output and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// y[m, :] = softmax over the positions n of row m with mask[m, n] == false (mask holds one byte
// per element, 0 or 1; 1 excludes the position: y = 0 there); a row with every position
// excluded is all zeros. x and y are contiguous M x N arrays of one dtype (0 float32,
// 1 float16, 2 bfloat16), mask a contiguous M x N bool array. Returns a cudaError_t (0:
// launched).
int aka_masked_softmax(const void* x, const void* mask, void* y, int64_t M, int64_t N, int dtype,
                       void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "masked_softmax: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor masked_softmax(torch::Tensor x, torch::Tensor mask) {
  TORCH_CHECK(x.is_cuda() && mask.is_cuda() && x.device() == mask.device(),
              "masked_softmax: x and mask must be on one GPU");
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous(), "masked_softmax: x must be a contiguous matrix");
  TORCH_CHECK(mask.scalar_type() == torch::kBool && mask.is_contiguous() &&
                  mask.sizes() == x.sizes(),
              "masked_softmax: mask must be a contiguous bool tensor of x's shape");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty_like(x);
  if (y.numel() == 0) return y;
  const int status = aka_masked_softmax(x.data_ptr(), mask.data_ptr(), y.data_ptr(), x.size(0),
                                        x.size(1), dtype_code(x),
                                        at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_masked_softmax failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("masked_softmax", &masked_softmax,
        "softmax over the last dimension of the unmasked positions; fully masked rows are 0");
}
