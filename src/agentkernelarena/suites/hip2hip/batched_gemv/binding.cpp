// Python bindings for hip2hip/batched_gemv (pristine: not editable). The kernels and their
// launcher live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA
// API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the
// arena translates kernel.hip to CUDA. Checks the tensors, allocates the output, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// y[b, n] = sum_k w[b, n, k] * x[b, k] for contiguous w (B x N x K), x (B x K), y (B x N), all
// of one dtype (1 float16, 2 bfloat16), accumulated in float32. Returns a hipError_t.
int aka_batched_gemv(const void* w, const void* x, void* y, int64_t B, int64_t N, int64_t K,
                     int dtype, void* stream);
}

torch::Tensor batched_gemv(torch::Tensor w, torch::Tensor x) {
  TORCH_CHECK(w.is_cuda() && x.is_cuda(), "batched_gemv: tensors must be on the GPU");
  TORCH_CHECK(w.dim() == 3 && w.is_contiguous(), "batched_gemv: w must be a contiguous B x N x K");
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous() && x.size(0) == w.size(0) &&
                  x.size(1) == w.size(2),
              "batched_gemv: x must be a contiguous B x K");
  TORCH_CHECK(w.scalar_type() == x.scalar_type(), "batched_gemv: w and x must share a dtype");
  int dtype = 0;
  if (w.scalar_type() == torch::kFloat16) {
    dtype = 1;
  } else if (w.scalar_type() == torch::kBFloat16) {
    dtype = 2;
  } else {
    TORCH_CHECK(false, "batched_gemv: unsupported dtype ", w.scalar_type());
  }
  const c10::cuda::OptionalCUDAGuard guard(w.device());
  auto y = torch::empty({w.size(0), w.size(1)}, w.options());
  if (y.numel() == 0) return y;
  const int status = aka_batched_gemv(w.data_ptr(), x.data_ptr(), y.data_ptr(), w.size(0),
                                      w.size(1), w.size(2), dtype,
                                      at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_batched_gemv failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("batched_gemv", &batched_gemv, "per-batch matrix-vector products, float32 accumulation");
}
