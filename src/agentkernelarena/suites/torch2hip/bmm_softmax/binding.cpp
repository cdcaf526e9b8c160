// Python bindings for torch2hip/bmm_softmax (pristine: not editable). The kernels and their
// launcher live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA
// API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the
// arena translates kernel.hip to CUDA. Checks the tensors, allocates the output, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// y[i, m, :] = softmax over n of sum_k a[i, m, k] * b[i, n, k], for contiguous a (B x M x K),
// b (B x N x K) and y (B x M x N) of one dtype (0 float32, 1 float16, 2 bfloat16). Returns a
// hipError_t (0: launched).
int aka_bmm_softmax(const void* a, const void* b, void* y, int64_t B, int64_t M, int64_t N,
                    int64_t K, int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "bmm_softmax: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor bmm_softmax(torch::Tensor a, torch::Tensor b) {
  TORCH_CHECK(a.is_cuda() && b.device() == a.device(), "bmm_softmax: a and b must be on one GPU");
  TORCH_CHECK(a.dim() == 3 && a.is_contiguous() && b.dim() == 3 && b.is_contiguous(),
              "bmm_softmax: a and b must be contiguous 3-D tensors");
  TORCH_CHECK(b.size(0) == a.size(0) && b.size(2) == a.size(2) &&
                  b.scalar_type() == a.scalar_type(),
              "bmm_softmax: b must be B x N x K with a's B, K and dtype");
  TORCH_CHECK(b.size(1) > 0 && a.size(2) > 0, "bmm_softmax: N and K must be positive");
  const c10::cuda::OptionalCUDAGuard guard(a.device());
  auto y = torch::empty({a.size(0), a.size(1), b.size(1)}, a.options());
  if (y.numel() == 0) return y;
  const int status = aka_bmm_softmax(a.data_ptr(), b.data_ptr(), y.data_ptr(), a.size(0),
                                     a.size(1), b.size(1), a.size(2), dtype_code(a),
                                     at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_bmm_softmax failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("bmm_softmax", &bmm_softmax, "softmax(a @ b^T) over the last dimension, batched");
}
