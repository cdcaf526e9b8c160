// Python bindings for torch2hip/batchnorm_train_forward (pristine: not editable). The kernels
// and their launcher live in kernel.hip, which includes no torch header. Written against
// PyTorch's CUDA API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP);
// on NVIDIA the arena translates kernel.hip to CUDA. Checks the tensors, allocates the output
// and a float32 workspace, calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// For x an N x C x HW contiguous array (NCHW with HW = H * W): per channel c, mean and biased
// variance over its N * HW values, y = (x - mean) / sqrt(var + eps) * w[c] + b[c]; x, y, w, b
// of one dtype (0 float32, 1 float16, 2 bfloat16). `workspace` is float32 scratch of
// workspace_floats values (64 * C + 1024), zeroed before the call, free for the kernels to use
// (e.g. partial sums). Returns a hipError_t (0: launched).
int aka_batchnorm_train_forward(const void* x, const void* w, const void* b, void* y,
                                void* workspace, int64_t workspace_floats, int64_t N, int64_t C,
                                int64_t HW, float eps, int dtype, void* stream);
}

namespace {

constexpr float kEps = 1e-5f;

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat32: return 0;
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "batchnorm_train_forward: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

void check_vector(const torch::Tensor& v, const torch::Tensor& x, const char* name) {
  TORCH_CHECK(v.device() == x.device() && v.dim() == 1 && v.is_contiguous() &&
                  v.size(0) == x.size(1) && v.scalar_type() == x.scalar_type(),
              "batchnorm_train_forward: ", name,
              " must be a contiguous vector of x's dtype on x's GPU, one value per channel");
}

}  // namespace

torch::Tensor batchnorm_train_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
  TORCH_CHECK(x.is_cuda(), "batchnorm_train_forward: x must be on the GPU");
  TORCH_CHECK(x.dim() == 4 && x.is_contiguous(),
              "batchnorm_train_forward: x must be a contiguous NCHW tensor");
  check_vector(w, x, "w");
  check_vector(b, x, "b");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty_like(x);
  if (y.numel() == 0) return y;
  const int64_t C = x.size(1);
  const int64_t ws_floats = 64 * C + 1024;
  auto workspace = torch::zeros({ws_floats}, x.options().dtype(torch::kFloat32));
  const int status = aka_batchnorm_train_forward(
      x.data_ptr(), w.data_ptr(), b.data_ptr(), y.data_ptr(), workspace.data_ptr(), ws_floats,
      x.size(0), C, x.size(2) * x.size(3), kEps, dtype_code(x),
      at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_batchnorm_train_forward failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("batchnorm_train_forward", &batchnorm_train_forward,
        "BatchNorm2d forward with batch statistics (training mode), no running buffers");
}
