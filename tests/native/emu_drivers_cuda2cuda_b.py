"""What the binding.cpp files of the second batch of cuda2cuda tasks do, in Python, for the
CPU emulator (one driver per task, keyed by task id; keep each in step with its binding.cpp).
"""

from __future__ import annotations

from collections.abc import Callable

import torch
from emu_drivers import DTYPE, Launchers, check_status


def transpose_2d(launch: Launchers, x: torch.Tensor) -> torch.Tensor:
    y = torch.empty(x.shape[1], x.shape[0], dtype=x.dtype)
    status = launch["aka_transpose_2d"](
        x.data_ptr(), y.data_ptr(), x.shape[0], x.shape[1], x.element_size(), None
    )
    check_status(status, "aka_transpose_2d")
    return y


def rmsnorm(launch: Launchers, x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    status = launch["aka_rmsnorm"](
        x.data_ptr(), w.data_ptr(), y.data_ptr(), x.shape[0], x.shape[1], 1e-6, DTYPE[x.dtype],
        None,
    )
    check_status(status, "aka_rmsnorm")
    return y


def hgemm(launch: Launchers, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    c = torch.empty(a.shape[0], b.shape[1], dtype=a.dtype)
    status = launch["aka_hgemm"](
        a.data_ptr(), b.data_ptr(), c.data_ptr(), a.shape[0], b.shape[1], a.shape[1], None
    )
    check_status(status, "aka_hgemm")
    return c


def bmm_fp16(launch: Launchers, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    B, M, K = a.shape
    N = b.shape[2]
    c = torch.empty(B, M, N, dtype=a.dtype)
    status = launch["aka_bmm_fp16"](a.data_ptr(), b.data_ptr(), c.data_ptr(), B, M, N, K, None)
    check_status(status, "aka_bmm_fp16")
    return c


def spmv_csr(
    launch: Launchers, row_ptr: torch.Tensor, col_idx: torch.Tensor, values: torch.Tensor,
    x: torch.Tensor,
) -> torch.Tensor:
    M = row_ptr.shape[0] - 1
    y = torch.empty(M, dtype=x.dtype)
    if values.shape[0] == 0:
        return y.zero_()
    status = launch["aka_spmv_csr"](
        row_ptr.data_ptr(), col_idx.data_ptr(), values.data_ptr(), x.data_ptr(), y.data_ptr(),
        M, x.shape[0], values.shape[0], None,
    )  # fmt: skip
    check_status(status, "aka_spmv_csr")
    return y


def column_reduce_sum(launch: Launchers, x: torch.Tensor) -> torch.Tensor:
    y = torch.empty(x.shape[1], dtype=x.dtype)
    status = launch["aka_column_reduce_sum"](x.data_ptr(), y.data_ptr(), x.shape[0], x.shape[1],
                                             None)  # fmt: skip
    check_status(status, "aka_column_reduce_sum")
    return y


def int8_gemm(
    launch: Launchers, a: torch.Tensor, b: torch.Tensor, scale_a: torch.Tensor,
    scale_b: torch.Tensor,
) -> torch.Tensor:
    c = torch.empty(a.shape[0], b.shape[1], dtype=torch.float32)
    status = launch["aka_int8_gemm"](
        a.data_ptr(), b.data_ptr(), scale_a.data_ptr(), scale_b.data_ptr(), c.data_ptr(),
        a.shape[0], b.shape[1], a.shape[1], None,
    )  # fmt: skip
    check_status(status, "aka_int8_gemm")
    return c


def paged_decode_attention(
    launch: Launchers, q: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor,
    block_table: torch.Tensor, seq_lens: torch.Tensor,
) -> torch.Tensor:
    out = torch.empty_like(q)
    status = launch["aka_paged_decode_attention"](
        q.data_ptr(), k_cache.data_ptr(), v_cache.data_ptr(), block_table.data_ptr(),
        seq_lens.data_ptr(), out.data_ptr(), q.shape[0], q.shape[1], k_cache.shape[0],
        k_cache.shape[1], block_table.shape[1], 0.125, None,
    )  # fmt: skip
    check_status(status, "aka_paged_decode_attention")
    return out


DRIVERS: dict[str, Callable[..., torch.Tensor]] = {
    "cuda2cuda/transpose_2d": transpose_2d,
    "cuda2cuda/rmsnorm": rmsnorm,
    "cuda2cuda/hgemm": hgemm,
    "cuda2cuda/bmm_fp16": bmm_fp16,
    "cuda2cuda/spmv_csr": spmv_csr,
    "cuda2cuda/column_reduce_sum": column_reduce_sum,
    "cuda2cuda/int8_gemm": int8_gemm,
    "cuda2cuda/paged_decode_attention": paged_decode_attention,
}
