// Python bindings for hip2hip/segment_sum (pristine: not editable). The kernels and their
// launcher live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA
// API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the
// arena translates kernel.hip to CUDA. Checks the tensors, allocates the zeroed output, calls
// the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// out[s, :] = sum of x[r, :] over offsets[s] <= r < offsets[s + 1], in float32, for a
// contiguous N x D x (dtype 0 float32, 1 float16, 2 bfloat16), S + 1 non-decreasing int64
// offsets from 0 to N and a contiguous S x D float32 out that arrives filled with zeros.
// Returns a hipError_t (0: launched).
int aka_segment_sum(const void* x, const void* offsets, void* out, int64_t N, int64_t D,
                    int64_t S, int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "segment_sum: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor segment_sum(torch::Tensor x, torch::Tensor offsets) {
  TORCH_CHECK(x.is_cuda() && offsets.is_cuda(), "segment_sum: tensors must be on the GPU");
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous(), "segment_sum: x must be a contiguous matrix");
  TORCH_CHECK(offsets.scalar_type() == torch::kInt64 && offsets.dim() == 1 &&
                  offsets.is_contiguous() && offsets.size(0) >= 1,
              "segment_sum: offsets must be a contiguous non-empty int64 vector");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  const int64_t N = x.size(0), D = x.size(1), S = offsets.size(0) - 1;
  auto out = torch::zeros({S, D}, x.options().dtype(torch::kFloat32));
  if (out.numel() == 0 || N == 0) return out;
  const int status = aka_segment_sum(x.data_ptr(), offsets.data_ptr(), out.data_ptr(), N, D, S,
                                     dtype_code(x), at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_segment_sum failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("segment_sum", &segment_sum, "float32 sums of the row segments given by CSR offsets");
}
