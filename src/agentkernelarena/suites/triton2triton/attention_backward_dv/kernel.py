"""dv = P^T @ do for causal attention, unfused: one kernel recomputes the full S x S
probability matrix P = exp(q k^T / sqrt(D) - lse) (zero above the diagonal) and writes it in
the input dtype, a second kernel reads P transposed and multiplies it by do over all S
queries."""

import torch
import triton
import triton.language as tl


@triton.jit
def _probs_kernel(q_ptr, k_ptr, lse_ptr, p_ptr, S, scale,
                  D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    bh = tl.program_id(2).to(tl.int64)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    q = tl.load(q_ptr + bh * S * D + offs_m[:, None] * D + offs_d[None, :],
                mask=offs_m[:, None] < S, other=0.0)
    kt = tl.load(k_ptr + bh * S * D + offs_n[None, :] * D + offs_d[:, None],
                 mask=offs_n[None, :] < S, other=0.0)
    lse = tl.load(lse_ptr + bh * S + offs_m, mask=offs_m < S, other=0.0)
    p = tl.exp(tl.dot(q, kt) * scale - lse[:, None])
    p = tl.where(offs_n[None, :] <= offs_m[:, None], p, 0.0)
    tl.store(p_ptr + bh * S * S + offs_m[:, None] * S + offs_n[None, :],
             p.to(p_ptr.dtype.element_ty), mask=(offs_m[:, None] < S) & (offs_n[None, :] < S))


@triton.jit
def _dv_kernel(p_ptr, do_ptr, dv_ptr, S, D: tl.constexpr, BLOCK_N: tl.constexpr,
               BLOCK_M: tl.constexpr):
    """dv[j-block] = sum over query blocks of P[i-block, j-block]^T @ do[i-block]."""
    pid_n = tl.program_id(0)
    bh = tl.program_id(1).to(tl.int64)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_m = tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, D)
    acc = tl.zeros((BLOCK_N, D), dtype=tl.float32)
    for m0 in range(0, S, BLOCK_M):
        ms = m0 + offs_m
        pt = tl.load(p_ptr + bh * S * S + ms[None, :] * S + offs_n[:, None],
                     mask=(ms[None, :] < S) & (offs_n[:, None] < S), other=0.0)
        do = tl.load(do_ptr + bh * S * D + ms[:, None] * D + offs_d[None, :],
                     mask=ms[:, None] < S, other=0.0)
        acc += tl.dot(pt, do)
    tl.store(dv_ptr + bh * S * D + offs_n[:, None] * D + offs_d[None, :],
             acc.to(dv_ptr.dtype.element_ty), mask=offs_n[:, None] < S)


def forward(q: torch.Tensor, k: torch.Tensor, do: torch.Tensor,
            lse: torch.Tensor) -> torch.Tensor:
    B, H, S, D = q.shape
    p = torch.empty((B * H, S, S), device=q.device, dtype=q.dtype)
    dv = torch.empty_like(k)
    BLOCK = 64
    grid = (triton.cdiv(S, BLOCK), triton.cdiv(S, BLOCK), B * H)
    _probs_kernel[grid](q, k, lse, p, S, D**-0.5, D=D, BLOCK_M=BLOCK, BLOCK_N=BLOCK)
    BLOCK_M = 64 if q.device.type == "cpu" else 32  # CPU: the Triton interpreter
    _dv_kernel[(triton.cdiv(S, BLOCK), B * H)](p, do, dv, S, D=D, BLOCK_N=BLOCK,
                                               BLOCK_M=BLOCK_M)
    return dv
