// Python bindings for hip2hip/histogram (pristine: not editable). The kernels and their
// launcher live in kernel.hip, which includes no torch header. Written against PyTorch's CUDA
// API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP); on NVIDIA the
// arena translates kernel.hip to CUDA. Checks the tensors, allocates the output, calls the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// out[b] = hist[b] + sum of w[i] over the i < N with idx[i] == b: idx int32 values in [0, B),
// w float32, hist and out float32 of B bins. Returns a hipError_t (0: launched).
int aka_histogram_add(const void* idx, const void* w, const void* hist, void* out, int64_t N,
                      int64_t B, void* stream);
}

torch::Tensor histogram(torch::Tensor idx, torch::Tensor w, torch::Tensor hist) {
  TORCH_CHECK(idx.is_cuda() && w.is_cuda() && hist.is_cuda(),
              "histogram: tensors must be on the GPU");
  TORCH_CHECK(idx.scalar_type() == torch::kInt32, "histogram: idx must be int32");
  TORCH_CHECK(w.scalar_type() == torch::kFloat32 && hist.scalar_type() == torch::kFloat32,
              "histogram: w and hist must be float32");
  TORCH_CHECK(idx.dim() == 1 && idx.is_contiguous(), "histogram: idx must be a contiguous vector");
  TORCH_CHECK(w.dim() == 1 && w.is_contiguous() && w.size(0) == idx.size(0),
              "histogram: w must be a contiguous vector like idx");
  TORCH_CHECK(hist.dim() == 1 && hist.is_contiguous() && hist.size(0) > 0,
              "histogram: hist must be a contiguous non-empty vector");
  const c10::cuda::OptionalCUDAGuard guard(idx.device());
  auto out = torch::empty_like(hist);
  const int status = aka_histogram_add(idx.data_ptr(), w.data_ptr(), hist.data_ptr(),
                                       out.data_ptr(), idx.size(0), out.size(0),
                                       at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_histogram_add failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("histogram", &histogram, "hist + weighted histogram of int32 bin indices");
}
