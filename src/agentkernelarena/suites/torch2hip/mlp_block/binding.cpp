// Python bindings for torch2hip/mlp_block (pristine: not editable). The kernels and their
// launcher live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA
// API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the
// arena translates kernel.hip to CUDA. Checks the tensors, allocates the output and a
// workspace, calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// y = relu(x @ w1^T + b1) @ w2^T + b2 (float32 arithmetic) for contiguous x (M x K), w1
// (H x K), b1 (H), w2 (N x H), b2 (N) and y (M x N) of one dtype (1 float16, 2 bfloat16).
// `workspace` is an uninitialized float32 array of M x H values the kernels may use. Returns a
// hipError_t (0: launched).
int aka_mlp_block(const void* x, const void* w1, const void* b1, const void* w2, const void* b2,
                  void* y, void* workspace, int64_t M, int64_t K, int64_t H, int64_t N,
                  int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "mlp_block: x must be float16 or bfloat16, not ", t.scalar_type());
  }
  return -1;
}

void check(const torch::Tensor& t, const torch::Tensor& x, c10::IntArrayRef shape,
           const char* name) {
  TORCH_CHECK(t.device() == x.device() && t.is_contiguous() && t.sizes() == shape &&
                  t.scalar_type() == x.scalar_type(),
              "mlp_block: ", name, " must be a contiguous tensor of x's dtype on x's GPU, shape ",
              shape);
}

}  // namespace

torch::Tensor mlp_block(torch::Tensor x, torch::Tensor w1, torch::Tensor b1, torch::Tensor w2,
                        torch::Tensor b2) {
  TORCH_CHECK(x.is_cuda(), "mlp_block: x must be on the GPU");
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous() && x.size(1) > 0,
              "mlp_block: x must be a contiguous M x K matrix with K > 0");
  TORCH_CHECK(w1.dim() == 2 && w2.dim() == 2, "mlp_block: w1 and w2 must be matrices");
  const int64_t M = x.size(0), K = x.size(1), H = w1.size(0), N = w2.size(0);
  TORCH_CHECK(H > 0 && N > 0, "mlp_block: H and N must be positive");
  check(w1, x, {H, K}, "w1");
  check(b1, x, {H}, "b1");
  check(w2, x, {N, H}, "w2");
  check(b2, x, {N}, "b2");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto y = torch::empty({M, N}, x.options());
  if (y.numel() == 0) return y;
  auto workspace = torch::empty({M, H}, x.options().dtype(torch::kFloat32));
  const int status = aka_mlp_block(x.data_ptr(), w1.data_ptr(), b1.data_ptr(), w2.data_ptr(),
                                   b2.data_ptr(), y.data_ptr(), workspace.data_ptr(), M, K, H, N,
                                   dtype_code(x), at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_mlp_block failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("mlp_block", &mlp_block, "relu(x @ w1^T + b1) @ w2^T + b2");
}
