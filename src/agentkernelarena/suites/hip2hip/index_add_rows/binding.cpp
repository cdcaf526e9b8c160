// Python bindings for hip2hip/index_add_rows (pristine: not editable). The kernels and their
// launcher live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA
// API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the
// arena translates kernel.hip to CUDA. Checks the tensors, allocates the output, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// out = base.index_add(0, index, src): base and out contiguous float32 M x D, index L int64
// row numbers in [0, M) (repeated), src contiguous float32 L x D; out[index[l], :] += src[l, :].
// Returns a hipError_t (0: launched).
int aka_index_add_rows(const void* base, const void* index, const void* src, void* out,
                       int64_t M, int64_t L, int64_t D, void* stream);
}

torch::Tensor index_add_rows(torch::Tensor base, torch::Tensor index, torch::Tensor src) {
  TORCH_CHECK(base.is_cuda() && index.is_cuda() && src.is_cuda(),
              "index_add_rows: tensors must be on the GPU");
  TORCH_CHECK(base.scalar_type() == torch::kFloat32 && src.scalar_type() == torch::kFloat32,
              "index_add_rows: base and src must be float32");
  TORCH_CHECK(index.scalar_type() == torch::kInt64, "index_add_rows: index must be int64");
  TORCH_CHECK(base.dim() == 2 && base.is_contiguous(), "index_add_rows: base must be a matrix");
  TORCH_CHECK(index.dim() == 1 && index.is_contiguous(), "index_add_rows: index must be a vector");
  TORCH_CHECK(src.dim() == 2 && src.is_contiguous() && src.size(0) == index.size(0) &&
                  src.size(1) == base.size(1),
              "index_add_rows: src must be a contiguous L x D matrix");
  const c10::cuda::OptionalCUDAGuard guard(base.device());
  auto out = torch::empty_like(base);
  if (out.numel() == 0) return out;
  const int status = aka_index_add_rows(base.data_ptr(), index.data_ptr(), src.data_ptr(),
                                        out.data_ptr(), base.size(0), index.size(0),
                                        base.size(1), at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_index_add_rows failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("index_add_rows", &index_add_rows, "base.index_add(0, index, src) for float32 rows");
}
