// Python bindings for torch2cuda/cosine_similarity (pristine: not editable). The kernels and
// their launcher live in kernel.cu, which includes no torch header; this file checks the
// tensors, allocates the output and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// out[m] = dot(a[m, :], b[m, :]) / (max(||a[m, :]||, eps) * max(||b[m, :]||, eps)) for
// contiguous M x N matrices a and b and an output vector of M, all of one dtype (0 float32,
// 1 float16, 2 bfloat16). Returns a cudaError_t (0: launched).
int aka_cosine_similarity(const void* a, const void* b, void* out, int64_t M, int64_t N,
                          float eps, int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "cosine_similarity: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor cosine_similarity(torch::Tensor a, torch::Tensor b, double eps) {
  TORCH_CHECK(a.is_cuda() && b.is_cuda() && a.device() == b.device(),
              "cosine_similarity: a and b must be on one GPU");
  TORCH_CHECK(a.dim() == 2 && a.is_contiguous() && b.is_contiguous() && a.sizes() == b.sizes(),
              "cosine_similarity: a and b must be contiguous matrices of one shape");
  TORCH_CHECK(a.scalar_type() == b.scalar_type(),
              "cosine_similarity: a and b must have one dtype");
  const c10::cuda::OptionalCUDAGuard guard(a.device());
  auto out = torch::empty({a.size(0)}, a.options());
  if (out.numel() == 0) return out;
  if (a.size(1) == 0) return out.zero_();  // empty rows: a zero dot product
  const int status = aka_cosine_similarity(
      a.data_ptr(), b.data_ptr(), out.data_ptr(), a.size(0), a.size(1), static_cast<float>(eps),
      dtype_code(a), at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_cosine_similarity failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("cosine_similarity", &cosine_similarity, "row-wise cosine similarity of two matrices");
}
