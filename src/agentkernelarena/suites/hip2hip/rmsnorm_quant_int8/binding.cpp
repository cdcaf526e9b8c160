// Python bindings for hip2hip/rmsnorm_quant_int8 (pristine: not editable). The kernels and
// their launcher live in kernel.hip, which includes no torch header. Written against PyTorch's
// CUDA API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA
// the arena translates kernel.hip to CUDA. Checks the tensors, allocates the outputs, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

#include <tuple>

extern "C" {
// RMSNorm (eps 1e-6) then per-row int8 quantization of a contiguous M x N matrix x with an
// N-vector weight, both float16 (dtype 1) or bfloat16 (2): q int8 M x N, scale float32 M.
// Returns a hipError_t (0: launched).
int aka_rmsnorm_quant_int8(const void* x, const void* weight, void* q, void* scale, int64_t M,
                           int64_t N, int dtype, void* stream);
}

std::tuple<torch::Tensor, torch::Tensor> rmsnorm_quant_int8(torch::Tensor x,
                                                            torch::Tensor weight) {
  TORCH_CHECK(x.is_cuda() && weight.is_cuda(), "rmsnorm_quant_int8: tensors must be on the GPU");
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous(), "rmsnorm_quant_int8: x must be a contiguous matrix");
  TORCH_CHECK(weight.dim() == 1 && weight.is_contiguous() && weight.size(0) == x.size(1),
              "rmsnorm_quant_int8: weight must be a contiguous vector of N");
  TORCH_CHECK(weight.scalar_type() == x.scalar_type(), "rmsnorm_quant_int8: dtypes differ");
  int dtype = 0;
  if (x.scalar_type() == torch::kFloat16) {
    dtype = 1;
  } else if (x.scalar_type() == torch::kBFloat16) {
    dtype = 2;
  } else {
    TORCH_CHECK(false, "rmsnorm_quant_int8: unsupported dtype ", x.scalar_type());
  }
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  auto q = torch::empty(x.sizes(), x.options().dtype(torch::kInt8));
  auto scale = torch::empty({x.size(0)}, x.options().dtype(torch::kFloat32));
  if (x.numel() == 0) return {q, scale};
  const int status = aka_rmsnorm_quant_int8(x.data_ptr(), weight.data_ptr(), q.data_ptr(),
                                            scale.data_ptr(), x.size(0), x.size(1), dtype,
                                            at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_rmsnorm_quant_int8 failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return {q, scale};
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("rmsnorm_quant_int8", &rmsnorm_quant_int8,
        "RMSNorm then per-row dynamic int8 quantization: (q, scale)");
}
