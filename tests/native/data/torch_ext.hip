// A complete torch extension in HIP: out = a * alpha + b, elementwise, float32.
#include <hip/hip_runtime.h>
#include <torch/extension.h>

__global__ void axpby_kernel(const float* __restrict__ a, const float* __restrict__ b,
                             float* __restrict__ out, float alpha, int64_t n) {
  int64_t i = static_cast<int64_t>(hipBlockIdx_x) * hipBlockDim_x + hipThreadIdx_x;
  if (i < n) out[i] = a[i] * alpha + b[i];
}

torch::Tensor forward(torch::Tensor a, torch::Tensor b, double alpha) {
  TORCH_CHECK(a.is_cuda() && b.is_cuda(), "inputs must be on the GPU");
  TORCH_CHECK(a.scalar_type() == torch::kFloat32 && b.sizes() == a.sizes(), "float32, same shape");
  auto ac = a.contiguous();
  auto bc = b.contiguous();
  auto out = torch::empty_like(ac);
  const int64_t n = ac.numel();
  const int threads = 256;
  const int blocks = static_cast<int>((n + threads - 1) / threads);
  if (n > 0) {
    hipLaunchKernelGGL(axpby_kernel, dim3(blocks), dim3(threads), 0, 0,
                       ac.data_ptr<float>(), bc.data_ptr<float>(), out.data_ptr<float>(),
                       static_cast<float>(alpha), n);
  }
  TORCH_CHECK(hipGetLastError() == hipSuccess, "launch failed");
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("forward", &forward, "a * alpha + b"); }
