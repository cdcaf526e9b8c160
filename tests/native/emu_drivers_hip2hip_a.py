"""Emulator drivers for a third batch of hip2hip tasks (decode GEMV, normalization, sorting,
pooling and scatter kernels).

Each function does what the task's binding.cpp does (allocate, pass data pointers, sizes and
dtype codes, check the status) for the CPU emulator (emulator.py); keep each in step with its
binding. test_suites_emulated.py merges the DRIVERS of every emu_drivers*.py.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
from emu_drivers import DTYPE, Launchers, check_status


def batched_gemv(launch: Launchers, w: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    B, N, K = w.shape
    y = torch.empty(B, N, dtype=w.dtype)
    status = launch["aka_batched_gemv"](
        w.data_ptr(), x.data_ptr(), y.data_ptr(), B, N, K, DTYPE[w.dtype], None
    )
    check_status(status, "aka_batched_gemv")
    return y


def group_norm(
    launch: Launchers, x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor
) -> torch.Tensor:
    y = torch.empty_like(x)
    N, C, H, W = x.shape
    status = launch["aka_group_norm"](
        x.data_ptr(), weight.data_ptr(), bias.data_ptr(), y.data_ptr(), N, C, H * W, 32,
        DTYPE[x.dtype], None,
    )  # fmt: skip
    check_status(status, "aka_group_norm")
    return y


def sort_rows(launch: Launchers, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    M, N = x.shape
    values = torch.empty_like(x)
    indices = torch.empty(M, N, dtype=torch.int64)
    status = launch["aka_sort_rows"](x.data_ptr(), values.data_ptr(), indices.data_ptr(), M, N,
                                     None)
    check_status(status, "aka_sort_rows")
    return values, indices


def max_pool2d(launch: Launchers, x: torch.Tensor) -> torch.Tensor:
    N, C, H, W = x.shape
    Ho, Wo = (H - 1) // 2 + 1, (W - 1) // 2 + 1
    y = torch.empty(N, C, Ho, Wo, dtype=x.dtype)
    status = launch["aka_max_pool2d"](
        x.data_ptr(), y.data_ptr(), N * C, H, W, Ho, Wo, DTYPE[x.dtype], None
    )
    check_status(status, "aka_max_pool2d")
    return y


def index_add_rows(
    launch: Launchers, base: torch.Tensor, index: torch.Tensor, src: torch.Tensor
) -> torch.Tensor:
    out = torch.empty_like(base)
    M, D = base.shape
    status = launch["aka_index_add_rows"](
        base.data_ptr(), index.data_ptr(), src.data_ptr(), out.data_ptr(), M, index.shape[0], D,
        None,
    )  # fmt: skip
    check_status(status, "aka_index_add_rows")
    return out


def rmsnorm_quant_int8(
    launch: Launchers, x: torch.Tensor, weight: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    M, N = x.shape
    q = torch.empty(M, N, dtype=torch.int8)
    scale = torch.empty(M, dtype=torch.float32)
    status = launch["aka_rmsnorm_quant_int8"](
        x.data_ptr(), weight.data_ptr(), q.data_ptr(), scale.data_ptr(), M, N, DTYPE[x.dtype], None
    )
    check_status(status, "aka_rmsnorm_quant_int8")
    return q, scale


def conv2d_3x3(
    launch: Launchers, x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor
) -> torch.Tensor:
    N, C, H, W = x.shape
    K = weight.shape[0]
    y = torch.empty(N, K, H, W, dtype=x.dtype)
    status = launch["aka_conv2d_3x3"](
        x.data_ptr(), weight.data_ptr(), bias.data_ptr(), y.data_ptr(), N, C, K, H, W,
        DTYPE[x.dtype], None,
    )  # fmt: skip
    check_status(status, "aka_conv2d_3x3")
    return y


def paged_attention_decode(
    launch: Launchers, q: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor,
    block_tables: torch.Tensor, context_lens: torch.Tensor,
) -> torch.Tensor:
    B, Hq, D = q.shape
    NB, BS, Hkv = k_cache.shape[0], k_cache.shape[1], k_cache.shape[2]
    out = torch.empty_like(q)
    status = launch["aka_paged_attention_decode"](
        q.data_ptr(), k_cache.data_ptr(), v_cache.data_ptr(), block_tables.data_ptr(),
        context_lens.data_ptr(), out.data_ptr(), B, Hq, Hkv, D, NB, BS, block_tables.shape[1],
        DTYPE[q.dtype], None,
    )  # fmt: skip
    check_status(status, "aka_paged_attention_decode")
    return out


DRIVERS: dict[str, Callable[..., object]] = {
    "hip2hip/batched_gemv": batched_gemv,
    "hip2hip/group_norm": group_norm,
    "hip2hip/sort_rows": sort_rows,
    "hip2hip/max_pool2d": max_pool2d,
    "hip2hip/index_add_rows": index_add_rows,
    "hip2hip/rmsnorm_quant_int8": rmsnorm_quant_int8,
    "hip2hip/conv2d_3x3": conv2d_3x3,
    "hip2hip/paged_attention_decode": paged_attention_decode,
}
