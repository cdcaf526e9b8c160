"""Multi-adapter LoRA shrink: one program per token finds its segment (binary search over
seg_starts), then reduces x[t] against each of its adapter's R rows on the CUDA cores, reading
the adapter's R x K matrix again for every token."""

import torch
import triton
import triton.language as tl


@triton.jit
def _shrink_token_kernel(x_ptr, a_ptr, starts_ptr, ids_ptr, out_ptr, K, R, S, scale,
                         STEPS: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_K: tl.constexpr):
    t = tl.program_id(0).to(tl.int64)
    # Largest s with seg_starts[s] <= t (an empty segment shares its start with the next).
    lo = 0
    hi = S
    for _ in range(STEPS):
        if hi - lo > 1:
            mid = (lo + hi) // 2
            if tl.load(starts_ptr + mid) <= t:
                lo = mid
            else:
                hi = mid
    adapter = tl.load(ids_ptr + lo)
    r = tl.arange(0, BLOCK_R)
    rmask = r < R
    acc = tl.zeros((BLOCK_R,), dtype=tl.float32)
    if adapter >= 0:
        a_base = a_ptr + adapter.to(tl.int64) * R * K
        for k0 in range(0, K, BLOCK_K):
            k = k0 + tl.arange(0, BLOCK_K)
            kmask = k < K
            xv = tl.load(x_ptr + t * K + k, mask=kmask, other=0.0).to(tl.float32)
            av = tl.load(a_base + r[:, None] * K + k[None, :],
                         mask=rmask[:, None] & kmask[None, :], other=0.0).to(tl.float32)
            acc += tl.sum(av * xv[None, :], axis=1)
    tl.store(out_ptr + t * R + r, acc * scale, mask=rmask)


def forward(x, lora_a, seg_starts, adapter_ids, scale: float) -> torch.Tensor:
    T, K = x.shape
    R = lora_a.shape[1]
    S = adapter_ids.shape[0]
    out = torch.empty((T, R), device=x.device, dtype=torch.float32)
    BLOCK_R = triton.next_power_of_2(R)
    _shrink_token_kernel[(T,)](x, lora_a, seg_starts, adapter_ids, out, K, R, S, scale,
                               STEPS=max(1, S.bit_length()), BLOCK_R=BLOCK_R,
                               BLOCK_K=max(16, 4096 // BLOCK_R))
    return out
