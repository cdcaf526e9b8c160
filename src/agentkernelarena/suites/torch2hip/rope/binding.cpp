// Python bindings for torch2hip/rope (pristine: not editable). The kernels and their launcher
// live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA API: on
// ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the arena
// translates kernel.hip to CUDA. Checks the tensors, allocates the output, calls the launcher
// on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// y[t, h, d] = x[t, h, d] * cos[t, d] + r[t, h, d] * sin[t, d] with r = (-x[..., D/2:],
// x[..., :D/2]) (rotate_half) for a contiguous T x H x D tensor x (D even), contiguous T x D
// tables cos and sin and a T x H x D output y, all of one dtype (0 float32, 1 float16,
// 2 bfloat16). Returns a hipError_t (0: launched).
int aka_rope(const void* x, const void* cos, const void* sin, void* y, int64_t T, int64_t H,
             int64_t D, int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "rope: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

void check_table(const torch::Tensor& v, const torch::Tensor& x, const char* name) {
  TORCH_CHECK(v.device() == x.device() && v.dim() == 2 && v.is_contiguous() &&
                  v.size(0) == x.size(0) && v.size(1) == x.size(2) &&
                  v.scalar_type() == x.scalar_type(),
              "rope: ", name, " must be a contiguous T x D table of x's dtype on x's GPU");
}

}  // namespace

torch::Tensor rope(torch::Tensor x, torch::Tensor cos, torch::Tensor sin) {
  TORCH_CHECK(x.is_cuda(), "rope: x must be on the GPU");
  TORCH_CHECK(x.dim() == 3 && x.is_contiguous() && x.size(2) % 2 == 0,
              "rope: x must be a contiguous T x H x D tensor with D even");
  check_table(cos, x, "cos");
  check_table(sin, x, "sin");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty_like(x);
  if (y.numel() == 0) return y;
  const int status = aka_rope(x.data_ptr(), cos.data_ptr(), sin.data_ptr(), y.data_ptr(),
                              x.size(0), x.size(1), x.size(2), dtype_code(x),
                              at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_rope failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("rope", &rope, "rotary position embedding, rotate_half form");
}
