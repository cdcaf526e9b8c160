"""Speculative-decoding verification in four kernels: acceptance flags for every drafted
position, the first rejection of each sequence, the candidate next token for every position
(residual argmax over the vocabulary for each of the S positions, target argmax for the bonus
row: (2 * S + 1) rows of V read per sequence), and finally the pick of the one candidate that
the first rejection selects."""

import torch
import triton
import triton.language as tl


@triton.jit
def _accept_kernel(draft_ptr, target_ptr, tok_ptr, u_ptr, flag_ptr, n_pos, S, V,
                   BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_pos
    b = offs // S
    i = offs % S
    tok = tl.load(tok_ptr + offs, mask=mask, other=0)
    d = tl.load(draft_ptr + offs.to(tl.int64) * V + tok, mask=mask, other=1.0)
    t = tl.load(target_ptr + (b * (S + 1) + i).to(tl.int64) * V + tok, mask=mask, other=0.0)
    u = tl.load(u_ptr + offs, mask=mask, other=1.0)
    accepted = u < tl.minimum(t / d, 1.0)
    tl.store(flag_ptr + offs, accepted.to(tl.int32), mask=mask)


@triton.jit
def _first_reject_kernel(flag_ptr, n_ptr, S, BLOCK_S: tl.constexpr):
    b = tl.program_id(0)
    i = tl.arange(0, BLOCK_S)
    f = tl.load(flag_ptr + b * S + i, mask=i < S, other=1)
    n = tl.min(tl.where(f == 0, i, S), axis=0)
    tl.store(n_ptr + b, n.to(tl.int64))


@triton.jit
def _candidate_kernel(draft_ptr, target_ptr, cand_ptr, S, V, BLOCK: tl.constexpr):
    # One program per (sequence, position 0..S): the token to emit if this position is the
    # first rejected one (S: all accepted).
    r = tl.program_id(0)
    b = r // (S + 1)
    i = r % (S + 1)
    has_draft = i < S
    d_len = tl.where(has_draft, V, 0)  # no draft row for the bonus position: read nothing
    t_row = target_ptr + r.to(tl.int64) * V
    d_row = draft_ptr + (b * S + i).to(tl.int64) * V
    best_r = tl.full((BLOCK,), -1.0, dtype=tl.float32)
    best_ri = tl.zeros((BLOCK,), dtype=tl.int32)
    best_t = tl.full((BLOCK,), -1.0, dtype=tl.float32)
    best_ti = tl.zeros((BLOCK,), dtype=tl.int32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < V
        t = tl.load(t_row + cols, mask=mask, other=-1.0)
        d = tl.load(d_row + cols, mask=cols < d_len, other=0.0)
        res = tl.where(mask, tl.maximum(t - d, 0.0), -1.0)
        better = res > best_r
        best_r = tl.where(better, res, best_r)
        best_ri = tl.where(better, cols, best_ri)
        better_t = t > best_t
        best_t = tl.where(better_t, t, best_t)
        best_ti = tl.where(better_t, cols, best_ti)
    rm = tl.max(best_r, axis=0)
    ri = tl.min(tl.where(best_r == rm, best_ri, V), axis=0)
    tm = tl.max(best_t, axis=0)
    ti = tl.min(tl.where(best_t == tm, best_ti, V), axis=0)
    cand = tl.where(has_draft & (rm > 0.0), ri, ti)
    tl.store(cand_ptr + r, cand.to(tl.int64))


@triton.jit
def _pick_kernel(n_ptr, cand_ptr, out_ptr, B, S, BLOCK: tl.constexpr):
    b = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = b < B
    n = tl.load(n_ptr + b, mask=mask, other=0)
    c = tl.load(cand_ptr + b.to(tl.int64) * (S + 1) + n, mask=mask, other=0)
    tl.store(out_ptr + b, c, mask=mask)


def forward(draft_probs, target_probs, draft_tokens, uniform):
    B, S, V = draft_probs.shape
    dev = draft_probs.device
    flags = torch.empty((B, S), device=dev, dtype=torch.int32)
    n = torch.empty((B,), device=dev, dtype=torch.int64)
    cand = torch.empty((B, S + 1), device=dev, dtype=torch.int64)
    next_token = torch.empty((B,), device=dev, dtype=torch.int64)
    BLOCK = 256
    _accept_kernel[(triton.cdiv(B * S, BLOCK),)](draft_probs, target_probs, draft_tokens,
                                                  uniform, flags, B * S, S, V, BLOCK=BLOCK)
    _first_reject_kernel[(B,)](flags, n, S, BLOCK_S=triton.next_power_of_2(S))
    _candidate_kernel[(B * (S + 1),)](draft_probs, target_probs, cand, S, V, BLOCK=1024)
    _pick_kernel[(triton.cdiv(B, BLOCK),)](n, cand, next_token, B, S, BLOCK=BLOCK)
    return (n, next_token)
