// Python bindings for torch2hip/argmax_rows (pristine: not editable). The kernels and their
// launcher live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA
// API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the
// arena translates kernel.hip to CUDA. Checks the tensor, allocates the output, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// out[m] = the smallest column n with x[m, n] = max over row m, for a contiguous M x N matrix
// x (dtype 0 float32, 1 float16, 2 bfloat16) and an int64 vector out of length M. Returns a
// hipError_t (0: launched).
int aka_argmax_rows(const void* x, void* out, int64_t M, int64_t N, int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "argmax_rows: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor argmax_rows(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "argmax_rows: x must be on the GPU");
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous() && x.size(1) > 0,
              "argmax_rows: x must be a contiguous matrix with at least one column");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto out = torch::empty({x.size(0)}, x.options().dtype(torch::kInt64));
  if (out.numel() == 0) return out;
  const int status = aka_argmax_rows(x.data_ptr(), out.data_ptr(), x.size(0), x.size(1),
                                     dtype_code(x), at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_argmax_rows failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("argmax_rows", &argmax_rows, "index of each row's maximum (first on ties)");
}
