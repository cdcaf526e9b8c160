"""Dense 3x3x3 channels-last convolution as an implicit GEMM: output voxels are the rows, output
channels the columns and (tap, input channel) the reduction; each program loads a voxel tile's
shifted input rows (zero outside the volume) and the matching weight slice and multiplies them
with tl.dot on the tensor cores, accumulating in float32 (grouped tile order for L2 reuse)."""

import torch
import triton
import triton.language as tl


@triton.jit
def _conv3d_igemm_kernel(x_ptr, w_ptr, out_ptr, NVOX, D, H, W, C, K,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_C: tl.constexpr,
                         GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_m = tl.cdiv(NVOX, BLOCK_M)
    num_n = tl.cdiv(K, BLOCK_N)
    per_group = GROUP_M * num_n
    group = pid // per_group
    first_m = group * GROUP_M
    size_m = min(num_m - first_m, GROUP_M)
    pid_m = first_m + (pid % per_group) % size_m
    pid_n = (pid % per_group) // size_m

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_c = tl.arange(0, BLOCK_C)
    mask_m = offs_m < NVOX
    mask_n = offs_n < K
    v = offs_m % W
    h = (offs_m // W) % H
    d = (offs_m // (W * H)) % D
    n = offs_m // (W * H * D)
    w_rows = offs_n.to(tl.int64) * (27 * C)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for tap in range(0, 27):
        di = d + tap // 9 - 1
        hi = h + (tap // 3) % 3 - 1
        wi = v + tap % 3 - 1
        ok = mask_m & (di >= 0) & (di < D) & (hi >= 0) & (hi < H) & (wi >= 0) & (wi < W)
        x_rows = (((n * D + di) * H + hi) * W + wi).to(tl.int64) * C
        for c0 in range(0, C, BLOCK_C):
            cs = c0 + offs_c
            cm = cs < C
            a = tl.load(x_ptr + x_rows[:, None] + cs[None, :],
                        mask=ok[:, None] & cm[None, :], other=0.0)
            b = tl.load(w_ptr + w_rows[None, :] + tap * C + cs[:, None],
                        mask=cm[:, None] & mask_n[None, :], other=0.0)
            acc += tl.dot(a, b)
    out_offs = offs_m.to(tl.int64)[:, None] * K + offs_n[None, :]
    tl.store(out_ptr + out_offs, acc.to(out_ptr.dtype.element_ty),
             mask=mask_m[:, None] & mask_n[None, :])


def forward(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    N, D, H, W, C = x.shape
    K = w.shape[0]
    out = torch.empty((N, D, H, W, K), device=x.device, dtype=x.dtype)
    nvox = N * D * H * W
    BLOCK_C = max(16, min(64, triton.next_power_of_2(C)))
    BLOCK_N = max(16, min(128, triton.next_power_of_2(K)))
    if x.device.type == "cpu":
        BLOCK_M, num_warps, num_stages = 32, 4, 1  # CPU: the Triton interpreter
    else:
        BLOCK_M, num_warps, num_stages = 128, 8, 3
    grid = (triton.cdiv(nvox, BLOCK_M) * triton.cdiv(K, BLOCK_N),)
    _conv3d_igemm_kernel[grid](x, w, out, nvox, D, H, W, C, K, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                               BLOCK_C=BLOCK_C, GROUP_M=8, num_warps=num_warps,
                               num_stages=num_stages)
    return out
