"""Paged KV-cache write, one kernel for the keys and one for the values, each with one program
per (token, head) copying D elements to cache[slot // BS, slot % BS, head]. Updates the caches
in place and returns them."""

import triton
import triton.language as tl


@triton.jit
def _write_kernel(src_ptr, cache_ptr, slot_ptr, H, D, BLOCK_D: tl.constexpr):
    t = tl.program_id(0).to(tl.int64)
    h = tl.program_id(1)
    cols = tl.arange(0, BLOCK_D)
    slot = tl.load(slot_ptr + t + tl.zeros((BLOCK_D,), dtype=tl.int64))
    mask = (cols < D) & (slot >= 0)
    v = tl.load(src_ptr + (t * H + h) * D + cols, mask=mask)
    # The cache is (NB, BS, H, D) contiguous, so (block, offset) = divmod(slot, BS) is row
    # `slot` of a (NB * BS, H, D) view.
    tl.store(cache_ptr + (slot * H + h) * D + cols, v, mask=mask)


def forward(key, value, k_cache, v_cache, slot_mapping):
    T, H, D = key.shape
    BLOCK_D = triton.next_power_of_2(D)
    _write_kernel[(T, H)](key, k_cache, slot_mapping, H, D, BLOCK_D=BLOCK_D)
    _write_kernel[(T, H)](value, v_cache, slot_mapping, H, D, BLOCK_D=BLOCK_D)
    return (k_cache, v_cache)
