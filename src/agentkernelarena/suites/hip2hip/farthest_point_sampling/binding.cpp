// Python bindings for hip2hip/farthest_point_sampling (pristine: not editable). The kernels
// and their launcher live in kernel.hip, which includes no torch header. Written against
// PyTorch's CUDA API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP);
// on NVIDIA the arena translates kernel.hip to CUDA. Checks the tensors, allocates a scratch
// buffer, fills the caller's idx (as PointNet++'s furthest_point_sampling does) through the
// launcher on the current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

extern "C" {
// Farthest point sampling of B clouds of N points (points: contiguous B x N x 3 float32):
// idx[b, 0] = 0, then idx[b, j] = the point with the largest distance to the j points picked
// so far (squared Euclidean distance to the nearest pick; the smallest index among equal
// ones), for j < npoint <= N; idx is a contiguous B x npoint int64 array. temp is a B x N
// float32 scratch array, free to use. Returns a hipError_t (0: launched).
int aka_farthest_point_sampling(const void* points, void* temp, void* idx, int64_t B, int64_t N,
                                int64_t npoint, void* stream);
}

torch::Tensor farthest_point_sampling(torch::Tensor points, torch::Tensor idx) {
  TORCH_CHECK(points.is_cuda() && idx.is_cuda(), "fps: tensors must be on the GPU");
  TORCH_CHECK(points.dim() == 3 && points.size(2) == 3 && points.is_contiguous() &&
                  points.scalar_type() == torch::kFloat32,
              "fps: points must be a contiguous B x N x 3 float32 tensor");
  TORCH_CHECK(idx.dim() == 2 && idx.is_contiguous() && idx.scalar_type() == torch::kInt64 &&
                  idx.size(0) == points.size(0),
              "fps: idx must be a contiguous B x npoint int64 tensor");
  const int64_t B = points.size(0), N = points.size(1), npoint = idx.size(1);
  TORCH_CHECK(npoint <= N && (npoint == 0 || N >= 1), "fps: npoint must not exceed N");
  const c10::cuda::OptionalCUDAGuard guard(points.device());
  if (B == 0 || npoint == 0) return idx;
  auto temp = torch::empty({B, N}, points.options());
  const int status = aka_farthest_point_sampling(points.data_ptr(), temp.data_ptr(),
                                                 idx.data_ptr(), B, N, npoint,
                                                 at::cuda::getCurrentCUDAStream().stream());
  TORCH_CHECK(status == 0, "aka_farthest_point_sampling failed: ",
              cudaGetErrorString(static_cast<cudaError_t>(status)));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return idx;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("farthest_point_sampling", &farthest_point_sampling,
        "iterative farthest point sampling of point clouds, starting at index 0");
}
