// Python bindings for torch2hip/adaptive_avg_pool2d (pristine: not editable). The kernels and
// their launcher live in kernel.hip, which includes no torch header. Written against PyTorch's
// CUDA API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA
// the arena translates kernel.hip to CUDA. Checks the tensor, allocates the output, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// y[p, i, j] = mean of x[p, h, w] over floor(i * H / OH) <= h < ceil((i + 1) * H / OH) and
// floor(j * W / OW) <= w < ceil((j + 1) * W / OW), for x seen as P = N * C contiguous H x W
// planes and y as P contiguous OH x OW planes, one dtype (0 float32, 1 float16, 2 bfloat16).
// Returns a hipError_t (0: launched).
int aka_adaptive_avg_pool2d(const void* x, void* y, int64_t P, int64_t H, int64_t W, int64_t OH,
                            int64_t OW, int dtype, void* stream);
}

namespace {

constexpr int64_t kOut = 7;

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "adaptive_avg_pool2d: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

torch::Tensor adaptive_avg_pool2d(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "adaptive_avg_pool2d: x must be on the GPU");
  TORCH_CHECK(x.dim() == 4 && x.is_contiguous(),
              "adaptive_avg_pool2d: x must be a contiguous NCHW tensor");
  TORCH_CHECK(x.size(2) > 0 && x.size(3) > 0, "adaptive_avg_pool2d: empty planes");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty({x.size(0), x.size(1), kOut, kOut}, x.options());
  if (y.numel() == 0) return y;
  const int status = aka_adaptive_avg_pool2d(x.data_ptr(), y.data_ptr(), x.size(0) * x.size(1),
                                             x.size(2), x.size(3), kOut, kOut, dtype_code(x),
                                             at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_adaptive_avg_pool2d failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("adaptive_avg_pool2d", &adaptive_avg_pool2d, "adaptive average pooling to 7 x 7");
}
