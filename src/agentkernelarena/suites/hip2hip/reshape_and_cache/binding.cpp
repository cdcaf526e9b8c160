// Python bindings for hip2hip/reshape_and_cache (pristine: not editable). The kernels and
// their launcher live in kernel.hip, which includes no torch header. Written against
// PyTorch's CUDA API: on ROCm, torch's extension builder hipifies this file (at::cuda -> HIP);
// on NVIDIA the arena translates kernel.hip to CUDA. Checks the tensors, calls the launcher on
// the current stream (the caches are written in place) and returns the caches.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

#include <tuple>

extern "C" {
// For every token t < T with slot = slots[t] >= 0: k_cache[slot / BS, slot % BS, :, :] =
// key[t] and v_cache[slot / BS, slot % BS, :, :] = value[t]. key, value: contiguous T x H x D;
// k_cache, v_cache: contiguous NB x BS x H x D of the same dtype (1 float16, 2 bfloat16);
// slots: T int64. Returns a hipError_t (0: launched).
int aka_reshape_and_cache(const void* key, const void* value, void* k_cache, void* v_cache,
                          const void* slots, int64_t T, int64_t H, int64_t D, int64_t BS,
                          int64_t NB, int dtype, void* stream);
}

namespace {

int dtype_code(const torch::Tensor& t) {
  switch (t.scalar_type()) {
    case torch::kFloat16: return 1;
    case torch::kBFloat16: return 2;
    default: TORCH_CHECK(false, "reshape_and_cache: unsupported dtype ", t.scalar_type());
  }
  return -1;
}

}  // namespace

std::tuple<torch::Tensor, torch::Tensor> reshape_and_cache(torch::Tensor key, torch::Tensor value,
                                                           torch::Tensor k_cache,
                                                           torch::Tensor v_cache,
                                                           torch::Tensor slot_mapping) {
  TORCH_CHECK(key.is_cuda() && value.is_cuda() && k_cache.is_cuda() && v_cache.is_cuda() &&
                  slot_mapping.is_cuda(),
              "reshape_and_cache: all tensors must be on the GPU");
  TORCH_CHECK(key.dim() == 3 && key.is_contiguous() && value.sizes() == key.sizes() &&
                  value.is_contiguous(),
              "reshape_and_cache: key and value must be contiguous T x H x D tensors");
  TORCH_CHECK(k_cache.dim() == 4 && k_cache.is_contiguous() && v_cache.sizes() == k_cache.sizes() &&
                  v_cache.is_contiguous(),
              "reshape_and_cache: the caches must be contiguous NB x BS x H x D tensors");
  TORCH_CHECK(k_cache.size(2) == key.size(1) && k_cache.size(3) == key.size(2),
              "reshape_and_cache: heads and head dim of the caches differ from the keys'");
  TORCH_CHECK(key.scalar_type() == value.scalar_type() &&
                  key.scalar_type() == k_cache.scalar_type() &&
                  key.scalar_type() == v_cache.scalar_type(),
              "reshape_and_cache: keys, values and caches must share a dtype");
  TORCH_CHECK(slot_mapping.scalar_type() == torch::kInt64 && slot_mapping.dim() == 1 &&
                  slot_mapping.is_contiguous() && slot_mapping.size(0) == key.size(0),
              "reshape_and_cache: slot_mapping must be a contiguous int64 vector of length T");
  const c10::cuda::OptionalCUDAGuard guard(key.device());
  if (key.numel() > 0) {
    const int status = aka_reshape_and_cache(
        key.data_ptr(), value.data_ptr(), k_cache.data_ptr(), v_cache.data_ptr(),
        slot_mapping.data_ptr(), key.size(0), key.size(1), key.size(2), k_cache.size(1),
        k_cache.size(0), dtype_code(key), at::cuda::getCurrentCUDAStream().stream());
    TORCH_CHECK(status == 0, "aka_reshape_and_cache failed: ",
                cudaGetErrorString(static_cast<cudaError_t>(status)));
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  }
  return {k_cache, v_cache};
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("reshape_and_cache", &reshape_and_cache,
        "write new keys and values into a paged KV cache at their slots (in place)");
}
