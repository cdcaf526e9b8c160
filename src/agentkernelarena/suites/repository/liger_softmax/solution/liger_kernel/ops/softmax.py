"""Row softmax for liger-kernel: forward and backward over the last dimension.

The AgentKernelArena solution of repository/liger_softmax, written for the arena (not taken from
upstream): the same functions and autograd class as liger-kernel 0.8.5's module. The library
gives every row its own program, which at 128-1024 columns means hundreds of thousands of tiny
programs, each moving a few hundred bytes. Here one program handles a [ROWS, BLOCK_N] tile
with ROWS chosen so that a tile holds about 4096 elements, and rows wider than 16384 columns
are streamed in blocks (online max and sum), so any width works. Arithmetic is in float32.
"""


import torch
import triton
import triton.language as tl
from liger_kernel.ops.utils import ensure_contiguous

_TILE = 4096  # elements per program for narrow rows
_WIDE = 16384  # widest row held in one block; wider rows are streamed


@triton.jit
def _softmax_rows_forward_kernel(Y_ptr, X_ptr, n_rows, n_cols, BLOCK_N: tl.constexpr,
                                 ROWS: tl.constexpr):
    rows = tl.program_id(0).to(tl.int64) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    offsets = rows[:, None] * n_cols + cols[None, :]
    x = tl.load(X_ptr + offsets, mask=mask, other=-float("inf")).to(tl.float32)
    m = tl.max(x, 1)
    m = tl.where(rows < n_rows, m, 0.0)  # rows past the end: no -inf - -inf
    e = tl.exp(x - m[:, None])
    d = tl.sum(e, 1)
    d = tl.where(rows < n_rows, d, 1.0)
    y = e / d[:, None]
    tl.store(Y_ptr + offsets, y.to(Y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _softmax_streamed_forward_kernel(Y_ptr, X_ptr, n_cols, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_N)
    x_row = X_ptr + row * n_cols
    m = tl.max(tl.full((BLOCK_N,), -float("inf"), tl.float32), 0)
    d = tl.sum(tl.zeros((BLOCK_N,), tl.float32), 0)
    for start in range(0, n_cols, BLOCK_N):
        x = tl.load(x_row + start + cols, mask=start + cols < n_cols,
                    other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, 0))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), 0)
        m = m_new
    for start in range(0, n_cols, BLOCK_N):
        inside = start + cols < n_cols
        x = tl.load(x_row + start + cols, mask=inside, other=-float("inf")).to(tl.float32)
        y = tl.exp(x - m) / d
        tl.store(Y_ptr + row * n_cols + start + cols, y.to(Y_ptr.dtype.element_ty), mask=inside)


@triton.jit
def _softmax_rows_backward_kernel(dX_ptr, dY_ptr, Y_ptr, n_rows, n_cols, BLOCK_N: tl.constexpr,
                                  ROWS: tl.constexpr):
    rows = tl.program_id(0).to(tl.int64) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    offsets = rows[:, None] * n_cols + cols[None, :]
    dy = tl.load(dY_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(Y_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    dot = tl.sum(dy * y, 1)
    dx = y * (dy - dot[:, None])
    tl.store(dX_ptr + offsets, dx.to(dX_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _softmax_streamed_backward_kernel(dX_ptr, dY_ptr, Y_ptr, n_cols, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_N)
    base = row * n_cols
    acc = tl.sum(tl.zeros((BLOCK_N,), tl.float32), 0)
    for start in range(0, n_cols, BLOCK_N):
        inside = start + cols < n_cols
        dy = tl.load(dY_ptr + base + start + cols, mask=inside, other=0.0).to(tl.float32)
        y = tl.load(Y_ptr + base + start + cols, mask=inside, other=0.0).to(tl.float32)
        acc += tl.sum(dy * y, 0)
    for start in range(0, n_cols, BLOCK_N):
        inside = start + cols < n_cols
        dy = tl.load(dY_ptr + base + start + cols, mask=inside, other=0.0).to(tl.float32)
        y = tl.load(Y_ptr + base + start + cols, mask=inside, other=0.0).to(tl.float32)
        tl.store(dX_ptr + base + start + cols, (y * (dy - acc)).to(dX_ptr.dtype.element_ty),
                 mask=inside)


def _settings(n_cols: int) -> tuple[int, int, int, bool]:
    """(BLOCK_N, ROWS per program, num_warps, streamed)."""
    block_n = triton.next_power_of_2(max(n_cols, 1))
    if block_n > _WIDE:
        return _WIDE, 1, 16, True
    rows = max(1, _TILE // block_n)
    elements = rows * block_n
    num_warps = 4 if elements <= 2048 else 8 if elements <= 8192 else 16
    return block_n, rows, num_warps, False


def _softmax_forward(x: torch.Tensor) -> tuple[torch.Tensor, int, int, bool]:
    """Returns (y, BLOCK_SIZE, num_warps, streamed) as the library's does (the last three are
    what the backward needs)."""
    *batch, n_cols = x.shape
    x2d = x.contiguous().view(-1, n_cols)
    n_rows = x2d.shape[0]
    y2d = torch.empty_like(x2d)
    block_n, rows, num_warps, streamed = _settings(n_cols)
    if n_rows and n_cols:
        if streamed:
            _softmax_streamed_forward_kernel[(n_rows,)](y2d, x2d, n_cols, BLOCK_N=block_n,
                                                        num_warps=num_warps)
        else:
            _softmax_rows_forward_kernel[(triton.cdiv(n_rows, rows),)](
                y2d, x2d, n_rows, n_cols, BLOCK_N=block_n, ROWS=rows, num_warps=num_warps)
    return y2d.view(*batch, n_cols), block_n, num_warps, streamed


def _softmax_backward(
    dy: torch.Tensor,
    y: torch.Tensor,
    BLOCK_SIZE: int,
    num_warps: int,
    multi_block_launch: bool,
) -> torch.Tensor:
    *batch, n_cols = dy.shape
    dy2d = dy.contiguous().view(-1, n_cols)
    y2d = y.contiguous().view(-1, n_cols)
    n_rows = dy2d.shape[0]
    dx2d = torch.empty_like(dy2d)
    block_n, rows, warps, streamed = _settings(n_cols)
    if n_rows and n_cols:
        if streamed:
            _softmax_streamed_backward_kernel[(n_rows,)](dx2d, dy2d, y2d, n_cols,
                                                         BLOCK_N=block_n, num_warps=warps)
        else:
            _softmax_rows_backward_kernel[(triton.cdiv(n_rows, rows),)](
                dx2d, dy2d, y2d, n_rows, n_cols, BLOCK_N=block_n, ROWS=rows, num_warps=warps)
    return dx2d.view(*batch, n_cols)


class LigerSoftmaxFunction(torch.autograd.Function):
    @staticmethod
    @ensure_contiguous
    def forward(ctx, input_: torch.Tensor):
        y, BLOCK_SIZE, num_warps, multi_block_launch = _softmax_forward(input_)
        ctx.save_for_backward(y)
        ctx.BLOCK_SIZE = BLOCK_SIZE
        ctx.num_warps = num_warps
        ctx.multi_block_launch = multi_block_launch
        return y

    @staticmethod
    @ensure_contiguous
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        return _softmax_backward(grad_output, y, ctx.BLOCK_SIZE, ctx.num_warps,
                                 ctx.multi_block_launch)
