// Python bindings for torch2cuda/avg_pool2d (pristine: not editable). The kernels and their
// launcher live in kernel.cu, which includes no torch header; this file checks the tensor,
// allocates the output and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// out[p, i, j] = mean of x[p, 2i - 1 .. 2i + 1, 2j - 1 .. 2j + 1] over the positions inside
// the H x W image (count_include_pad=False), in float32, for a contiguous planes x H x W array
// x and a contiguous planes x Ho x Wo array out (Ho = (H - 1) / 2 + 1, Wo = (W - 1) / 2 + 1) of
// one dtype (0 float32, 1 float16, 2 bfloat16). Returns a cudaError_t (0: launched).
int aka_avg_pool2d(const void* x, void* out, int64_t planes, int64_t H, int64_t W, int dtype,
                   void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "avg_pool2d: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor avg_pool2d(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "avg_pool2d: x must be on a GPU");
  TORCH_CHECK(x.dim() == 4 && x.is_contiguous(), "avg_pool2d: x must be contiguous NCHW");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  const int64_t H = x.size(2), W = x.size(3);
  auto out = torch::empty({x.size(0), x.size(1), (H - 1) / 2 + 1, (W - 1) / 2 + 1}, x.options());
  if (out.numel() == 0) return out;
  const int status = aka_avg_pool2d(x.data_ptr(), out.data_ptr(), x.size(0) * x.size(1), H, W,
                                    dtype_code(x), at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_avg_pool2d failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("avg_pool2d", &avg_pool2d,
        "3x3 average pooling, stride 2, padding 1, count_include_pad=False (NCHW)");
}
