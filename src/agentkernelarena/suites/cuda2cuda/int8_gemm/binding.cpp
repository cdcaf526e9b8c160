// Python bindings for cuda2cuda/int8_gemm (pristine: not editable). The kernels and their
// launcher live in kernel.cu, which includes no torch header; this file checks the tensors,
// allocates the output and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// c[m, n] = float(sum_k a[m, k] * b[k, n]) * scale_a[m] * scale_b[n] for row-major int8
// a (M x K), b (K x N), the sum exact in int32, float32 scale_a (M), scale_b (N) and c
// (M x N), on `stream`. Returns a cudaError_t (0: launched).
int aka_int8_gemm(const void* a, const void* b, const void* scale_a, const void* scale_b,
                  void* c, int64_t M, int64_t N, int64_t K, void* stream);
}

torch::Tensor int8_gemm(torch::Tensor a, torch::Tensor b, torch::Tensor scale_a,
                        torch::Tensor scale_b) {
  TORCH_CHECK(a.is_cuda() && b.is_cuda() && a.device() == b.device(),
              "int8_gemm: a and b must be on one GPU");
  TORCH_CHECK(a.scalar_type() == torch::kInt8 && b.scalar_type() == torch::kInt8,
              "int8_gemm: a and b must be int8");
  TORCH_CHECK(a.dim() == 2 && b.dim() == 2 && a.size(1) == b.size(0),
              "int8_gemm: a (M x K) and b (K x N) must be matrices with matching K");
  TORCH_CHECK(a.is_contiguous() && b.is_contiguous(), "int8_gemm: a and b must be contiguous");
  TORCH_CHECK(scale_a.is_cuda() && scale_b.is_cuda() && scale_a.device() == a.device() &&
                  scale_b.device() == a.device(),
              "int8_gemm: the scales must be on the GPU of a and b");
  TORCH_CHECK(scale_a.scalar_type() == torch::kFloat32 && scale_b.scalar_type() == torch::kFloat32,
              "int8_gemm: the scales must be float32");
  TORCH_CHECK(scale_a.dim() == 1 && scale_a.size(0) == a.size(0) && scale_a.is_contiguous() &&
                  scale_b.dim() == 1 && scale_b.size(0) == b.size(1) && scale_b.is_contiguous(),
              "int8_gemm: scale_a must be a contiguous vector of M, scale_b of N");
  const c10::cuda::OptionalCUDAGuard guard(a.device());
  auto c = torch::empty({a.size(0), b.size(1)}, scale_a.options());
  if (c.numel() == 0) return c;
  if (a.size(1) == 0) return c.zero_();
  const int status = aka_int8_gemm(a.data_ptr(), b.data_ptr(), scale_a.data_ptr(),
                                   scale_b.data_ptr(), c.data_ptr(), a.size(0), b.size(1),
                                   a.size(1),
                                   at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_int8_gemm failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return c;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("int8_gemm", &int8_gemm, "int8 matrix product, int32 sums, float32 row and column scales");
}
