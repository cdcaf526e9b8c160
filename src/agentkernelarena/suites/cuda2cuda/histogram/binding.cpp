// Python bindings for cuda2cuda/histogram (pristine: not editable). The kernels and their
// launcher live in kernel.cu, which includes no torch header; this file checks the tensors,
// allocates the output (zeroed) and calls the launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// Adds to counts[i] (int32, B bins, zero on entry) the number of the N float32 values x with
// edges[i] <= x < edges[i + 1] (x == edges[B] counts in bin B - 1; values outside the edges
// and NaN are skipped); edges: B + 1 strictly increasing float32 values.
// Returns a cudaError_t (0: launched).
int aka_histogram(const void* x, const void* edges, void* counts, int64_t N, int64_t B,
                  void* stream);
}

torch::Tensor histogram(torch::Tensor x, torch::Tensor edges) {
  TORCH_CHECK(x.is_cuda() && edges.is_cuda() && x.device() == edges.device(),
              "histogram: x and edges must be on one GPU");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32 && edges.scalar_type() == torch::kFloat32,
              "histogram: x and edges must be float32");
  TORCH_CHECK(x.dim() == 1 && x.is_contiguous(), "histogram: x must be a contiguous vector");
  TORCH_CHECK(edges.dim() == 1 && edges.is_contiguous() && edges.size(0) >= 2,
              "histogram: edges must be a contiguous vector of at least 2 values");
  const c10::cuda::OptionalCUDAGuard guard(x.device());
  const int64_t B = edges.size(0) - 1;
  auto counts = torch::zeros({B}, x.options().dtype(torch::kInt32));
  if (x.numel() == 0) return counts;
  const int status = aka_histogram(x.data_ptr(), edges.data_ptr(), counts.data_ptr(), x.size(0),
                                   B, at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_histogram failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return counts;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("histogram", &histogram, "histogram of float32 values over non-uniform bin edges");
}
