// Python bindings for hip2hip/rope (pristine: not editable). The kernels and their launcher
// live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA API: on
// ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the arena
// translates kernel.hip to CUDA. Checks the tensors, allocates the output, calls the launcher
// on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// Rotary position embedding (rotate-half form) of q (T x H x D, contiguous, dtype 0 float32,
// 1 float16, 2 bfloat16) with float32 tables cos, sin (T x D/2, contiguous) into out (same
// shape and dtype as q). Returns a hipError_t (0: launched).
int aka_rope_forward(const void* q, const void* cos, const void* sin, void* out, int64_t T,
                     int64_t H, int64_t D, int dtype, void* stream);
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

}  // namespace

torch::Tensor rope(torch::Tensor q, torch::Tensor cos, torch::Tensor sin) {
  TORCH_CHECK(q.is_cuda() && cos.is_cuda() && sin.is_cuda(), "rope: tensors must be on the GPU");
  TORCH_CHECK(q.dim() == 3 && q.is_contiguous(), "rope: q must be a contiguous T x H x D tensor");
  const int64_t T = q.size(0), H = q.size(1), D = q.size(2);
  TORCH_CHECK(D % 2 == 0, "rope: the head dimension must be even");
  for (const auto* t : {&cos, &sin}) {
    TORCH_CHECK(t->scalar_type() == torch::kFloat32, "rope: cos and sin must be float32");
    TORCH_CHECK(t->dim() == 2 && t->is_contiguous() && t->size(0) == T && t->size(1) == D / 2,
                "rope: cos and sin must be contiguous T x D/2 tables");
  }
  const c10::cuda::OptionalCUDAGuard guard(q.device());
  auto out = torch::empty_like(q);
  if (out.numel() == 0) return out;
  const int status = aka_rope_forward(q.data_ptr(), cos.data_ptr(), sin.data_ptr(),
                                      out.data_ptr(), T, H, D, dtype_code(q),
                                      at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_rope_forward failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("rope", &rope, "rotary position embedding (rotate-half) with cos/sin tables");
}
