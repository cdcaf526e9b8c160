// Python bindings for torch2hip/instance_norm (pristine: not editable). The kernels and their
// launcher live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA
// API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the
// arena translates kernel.hip to CUDA. Checks the tensors, allocates the output, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// For each of the P = N * C contiguous planes of HW values of x (plane p has channel p % C):
// y = (x - mean) / sqrt(var + eps) * w[c] + b[c] with the plane's mean and biased variance;
// x, y, w and b of one dtype (0 float32, 1 float16, 2 bfloat16). Returns a hipError_t
// (0: launched).
int aka_instance_norm(const void* x, const void* w, const void* b, void* y, int64_t P, int64_t C,
                      int64_t HW, float eps, int dtype, void* stream);
}

namespace {

constexpr float kEps = 1e-5f;

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "instance_norm: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

void check_vector(const torch::Tensor& v, const torch::Tensor& x, const char* name) {
  TORCH_CHECK(v.device() == x.device() && v.dim() == 1 && v.is_contiguous() &&
                  v.size(0) == x.size(1) && v.scalar_type() == x.scalar_type(),
              "instance_norm: ", name,
              " must be a contiguous vector of x's dtype on x's GPU, one value per channel");
}

}  // namespace

torch::Tensor instance_norm(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
  TORCH_CHECK(x.is_cuda(), "instance_norm: x must be on the GPU");
  TORCH_CHECK(x.dim() == 4 && x.is_contiguous(),
              "instance_norm: x must be a contiguous NCHW tensor");
  check_vector(w, x, "w");
  check_vector(b, x, "b");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty_like(x);
  if (y.numel() == 0) return y;
  const int status = aka_instance_norm(x.data_ptr(), w.data_ptr(), b.data_ptr(), y.data_ptr(),
                                       x.size(0) * x.size(1), x.size(1), x.size(2) * x.size(3),
                                       kEps, dtype_code(x),
                                       at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_instance_norm failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("instance_norm", &instance_norm, "InstanceNorm2d with affine, no running statistics");
}
