"""Tolerances and inputs of the second batch of cuda2cuda tasks reject the shortcuts a kernel
could take: each case is a plausible wrong implementation (plain PyTorch, on the task's CPU
configurations and inputs) that must fail the task's comparison on at least one
configuration, while the reference itself passes on every one (tests/known_wrong.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch
from known_wrong import (
    TASKS,
    case_ids,
    check_case,
    declared,
    in_float32,
    task_module,
    verdicts,
)

NAMES = ["transpose_2d", "rmsnorm", "hgemm", "bmm_fp16", "spmv_csr", "column_reduce_sum",
         "int8_gemm", "paged_decode_attention"]


# --- plausible wrong implementations, in plain PyTorch ------------------------------------

def _transpose_as_reshape(x):
    # The shape of the transpose without moving the elements.
    return x.reshape(x.shape[1], x.shape[0]).clone()


def _transpose_through_half(x):
    # float32 routed through float16 (a kernel that assumed 2-byte elements for all dtypes).
    return x.t().contiguous().half().to(x.dtype)


def _rmsnorm_eps_outside(x, w):
    xf = x.float()
    y = xf / (xf.pow(2).mean(-1, keepdim=True).sqrt() + 1e-6) * w.float()
    return y.to(x.dtype)


def _rmsnorm_unbiased_std(x, w):
    # The standard deviation (centered, unbiased) in place of the root mean square.
    xf = x.float()
    return (xf / torch.sqrt(xf.var(-1, keepdim=True) + 1e-6) * w.float()).to(x.dtype)


def _rmsnorm_weight_of_row(x, w):
    # The weight indexed by the row instead of the column (broadcast of the wrong axis).
    xf = x.float()
    scale = w.float()[torch.arange(x.shape[0]) % w.shape[0]].unsqueeze(1)
    return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6) * scale).to(x.dtype)


def _hgemm_bf16_inputs(a, b):
    # Operands rounded to bfloat16 on their way in.
    return (a.bfloat16().float() @ b.bfloat16().float()).to(a.dtype)


def _hgemm_b_transposed_read(a, b):
    # B read as if it were stored column-major (only meaningful when K == N).
    if b.shape[0] != b.shape[1]:
        return (a.float() @ b.float()).mul(1.01).to(a.dtype)
    return (a.float() @ b.float().t()).to(a.dtype)


def _bmm_first_batch_a(a, b):
    return torch.matmul(a[:1].float(), b.float()).to(a.dtype)


def _bmm_last_batch_skipped(a, b):
    out = torch.bmm(a.float(), b.float())
    out[-1] = 0
    return out.to(a.dtype)


def _spmv_row_ptr_shifted(row_ptr, col_idx, values, x):
    # Row m summed over [row_ptr[m + 1], row_ptr[m + 2]): the offsets read one row late.
    shifted = torch.cat((row_ptr[1:], row_ptr[-1:]))
    y = torch.zeros(row_ptr.shape[0] - 1, dtype=values.dtype)
    prod = values * x[col_idx.long()]
    for m in range(y.shape[0]):
        y[m] = prod[int(shifted[m]):int(shifted[m + 1])].sum()
    return y


def _spmv_x_by_position(row_ptr, col_idx, values, x):
    # x indexed by the position within the row instead of col_idx.
    y = torch.zeros(row_ptr.shape[0] - 1, dtype=values.dtype)
    for m in range(y.shape[0]):
        lo, hi = int(row_ptr[m]), int(row_ptr[m + 1])
        pos = torch.arange(hi - lo) % x.shape[0]
        y[m] = (values[lo:hi] * x[pos]).sum()
    return y


def _column_sum_last_rows_dropped(x):
    # Rows past the last full group of 8 ignored.
    m = max(1, x.shape[0] // 8 * 8)
    return x[:m].sum(0)


def _column_sum_mean(x):
    return x.mean(0)


def _int8_sum_in_float16(a, b, sa, sb):
    # The int32 sums rounded to float16 before scaling.
    acc = (a.double() @ b.double()).half().float()
    return acc * sa[:, None] * sb[None, :]


def _int8_b_bytes_swapped(a, b, sa, sb):
    # B's bytes read in the wrong order within each group of four columns (a packing slip).
    n = b.shape[1] // 4 * 4
    bb = b.clone()
    bb[:, :n] = b[:, :n].reshape(b.shape[0], -1, 4).flip(-1).reshape(b.shape[0], n)
    return (a.double() @ bb.double()).float() * sa[:, None] * sb[None, :]


def _int8_no_column_scale(a, b, sa, sb):
    return (a.double() @ b.double()).float() * sa[:, None]


def _paged(q, k_cache, v_cache, block_table, seq_lens, *, table=None, lens=None, scale=0.125):
    B, H, D = q.shape
    bs = k_cache.shape[1]
    out = torch.empty_like(q)
    for b in range(B):
        L = int(seq_lens[b]) if lens is None else lens(b)
        row = block_table[b] if table is None else table(b)
        blocks = row[: (L + bs - 1) // bs].long()
        k = k_cache[blocks].float().reshape(-1, H, D)[:L]
        v = v_cache[blocks].float().reshape(-1, H, D)[:L]
        p = torch.softmax(torch.einsum("hd,lhd->hl", q[b].float(), k) * scale, -1)
        out[b] = torch.einsum("hl,lhd->hd", p, v).to(q.dtype)
    return out


def _paged_identity_table(q, k_cache, v_cache, block_table, seq_lens):
    # Blocks assumed contiguous per sequence (block b * max_blocks + i), the table ignored.
    mb = block_table.shape[1]
    return _paged(q, k_cache, v_cache, block_table, seq_lens,
                  table=lambda b: torch.arange(b * mb, (b + 1) * mb))


def _paged_whole_blocks(q, k_cache, v_cache, block_table, seq_lens):
    # Lengths rounded up to whole blocks (the tail of the last block attended to).
    bs = k_cache.shape[1]
    return _paged(q, k_cache, v_cache, block_table, seq_lens,
                  lens=lambda b: (int(seq_lens[b]) + bs - 1) // bs * bs)


def _paged_longest_length(q, k_cache, v_cache, block_table, seq_lens):
    # Every sequence taken at the longest length.
    return _paged(q, k_cache, v_cache, block_table, seq_lens, lens=lambda b: int(seq_lens.max()))


def _paged_no_scale(q, k_cache, v_cache, block_table, seq_lens):
    return _paged(q, k_cache, v_cache, block_table, seq_lens, scale=1.0)


CASES: list[tuple[str, str, Callable[..., Any]]] = [
    ("transpose_2d", "reshape, not transpose", _transpose_as_reshape),
    ("transpose_2d", "float32 through float16", _transpose_through_half),
    ("rmsnorm", "eps outside the square root", _rmsnorm_eps_outside),
    ("rmsnorm", "unbiased centered std", _rmsnorm_unbiased_std),
    ("rmsnorm", "weight indexed by row", _rmsnorm_weight_of_row),
    ("rmsnorm", "no weight (declared)", declared("cuda2cuda/rmsnorm", "no_weight")),
    ("hgemm", "bfloat16 operands", _hgemm_bf16_inputs),
    ("hgemm", "B read column-major", _hgemm_b_transposed_read),
    ("hgemm", "float16 accumulation (declared)",
     declared("cuda2cuda/hgemm", "half_accumulation")),
    ("bmm_fp16", "A of the first batch for all", _bmm_first_batch_a),
    ("bmm_fp16", "last batch skipped", _bmm_last_batch_skipped),
    ("bmm_fp16", "B of the first batch (declared)",
     declared("cuda2cuda/bmm_fp16", "first_batch_b")),
    ("spmv_csr", "row offsets read one row late", _spmv_row_ptr_shifted),
    ("spmv_csr", "x indexed by position", _spmv_x_by_position),
    ("spmv_csr", "rows capped at 32 entries (declared)",
     declared("cuda2cuda/spmv_csr", "row_capped_at_32")),
    ("column_reduce_sum", "rows past a multiple of 8 dropped", _column_sum_last_rows_dropped),
    ("column_reduce_sum", "mean, not sum", _column_sum_mean),
    ("int8_gemm", "sums rounded to float16", _int8_sum_in_float16),
    ("int8_gemm", "column scale missing", _int8_no_column_scale),
    ("int8_gemm", "bytes of B swapped in groups of 4", _int8_b_bytes_swapped),
    ("int8_gemm", "unsigned bytes (declared)", declared("cuda2cuda/int8_gemm", "unsigned_bytes")),
    ("paged_decode_attention", "block table ignored", _paged_identity_table),
    ("paged_decode_attention", "lengths rounded up to blocks", _paged_whole_blocks),
    ("paged_decode_attention", "every sequence at the longest length", _paged_longest_length),
    ("paged_decode_attention", "scores not scaled", _paged_no_scale),
]


@pytest.mark.parametrize("name", NAMES)
def test_reference_passes(name):
    task = TASKS[f"cuda2cuda/{name}"]
    module = task_module(task, task.reference.file)
    reference = getattr(module, task.reference.function)
    assert all(verdicts(task, in_float32(reference)))


@pytest.mark.parametrize(("name", "what", "variant"), CASES, ids=case_ids(CASES))
def test_known_wrong_variant_fails(name, what, variant):
    check_case(f"cuda2cuda/{name}", what, variant)
