"""Paged KV-cache write in one launch with one program per token: the token's whole key row
(H * D contiguous elements) and value row are copied to their slot in both caches, with wide
contiguous accesses; padding tokens return at once without reading anything."""

import triton
import triton.language as tl


@triton.jit
def _write_kv_kernel(k_ptr, v_ptr, kc_ptr, vc_ptr, slot_ptr, HD, BLOCK: tl.constexpr):
    t = tl.program_id(0).to(tl.int64)
    slot = tl.load(slot_ptr + t)
    if slot >= 0:
        for c0 in range(0, HD, BLOCK):
            cols = c0 + tl.arange(0, BLOCK)
            mask = cols < HD
            k = tl.load(k_ptr + t * HD + cols, mask=mask)
            v = tl.load(v_ptr + t * HD + cols, mask=mask)
            tl.store(kc_ptr + slot * HD + cols, k, mask=mask)
            tl.store(vc_ptr + slot * HD + cols, v, mask=mask)


def forward(key, value, k_cache, v_cache, slot_mapping):
    T, H, D = key.shape
    HD = H * D
    BLOCK = min(2048, triton.next_power_of_2(HD))
    if key.device.type == "cpu":
        BLOCK = min(BLOCK, 256)
    _write_kv_kernel[(T,)](key, value, k_cache, v_cache, slot_mapping, HD, BLOCK=BLOCK,
                           num_warps=4)
    return (k_cache, v_cache)
