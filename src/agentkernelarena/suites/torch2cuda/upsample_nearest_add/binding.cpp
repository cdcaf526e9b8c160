// Python bindings for torch2cuda/upsample_nearest_add (pristine: not editable). The kernels and
// their launcher live in kernel.cu, which includes no torch header; this file checks the
// tensors, allocates the output and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// out[p, y, x] = fine[p, y, x] + coarse[p, y / 2, x / 2] for p < planes (= N * C), y < 2h,
// x < 2w: fine and out are contiguous planes x 2h x 2w arrays, coarse a contiguous
// planes x h x w array, all of one dtype (0 float32, 1 float16, 2 bfloat16). Returns a
// cudaError_t (0: launched).
int aka_upsample_nearest_add(const void* fine, const void* coarse, void* out, int64_t planes,
                             int64_t h, int64_t w, int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "upsample_nearest_add: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor upsample_nearest_add(torch::Tensor fine, torch::Tensor coarse) {
  TORCH_CHECK(fine.is_cuda() && coarse.is_cuda() && fine.device() == coarse.device(),
              "upsample_nearest_add: fine and coarse must be on one GPU");
  TORCH_CHECK(fine.dim() == 4 && fine.is_contiguous() && coarse.dim() == 4 &&
                  coarse.is_contiguous(),
              "upsample_nearest_add: fine and coarse must be contiguous NCHW tensors");
  TORCH_CHECK(fine.scalar_type() == coarse.scalar_type(),
              "upsample_nearest_add: fine and coarse must have one dtype");
  TORCH_CHECK(fine.size(0) == coarse.size(0) && fine.size(1) == coarse.size(1) &&
                  fine.size(2) == 2 * coarse.size(2) && fine.size(3) == 2 * coarse.size(3),
              "upsample_nearest_add: fine must be N x C x 2h x 2w for coarse N x C x h x w");
  const c10::cuda::OptionalCUDAGuard guard(fine.device());
  auto out = torch::empty_like(fine);
  if (out.numel() == 0) return out;
  const int status = aka_upsample_nearest_add(
      fine.data_ptr(), coarse.data_ptr(), out.data_ptr(), coarse.size(0) * coarse.size(1),
      coarse.size(2), coarse.size(3), dtype_code(fine), at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_upsample_nearest_add failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("upsample_nearest_add", &upsample_nearest_add,
        "fine + nearest 2x upsampling of coarse (NCHW)");
}
