"""Emulator drivers for the hip2hip tasks added beside logsumexp, silu_mul and transpose.

Each function does what the task's binding.cpp does (allocate, pass data pointers, sizes and
dtype codes, check the status) for the CPU emulator (emulator.py); keep each in step with its
binding. test_suites_emulated.py merges the DRIVERS of every emu_drivers*.py.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
from emu_drivers import DTYPE, Launchers, check_status, layernorm


def softmax(launch: Launchers, x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    M, N = x.shape
    status = launch["aka_softmax_rows"](x.data_ptr(), y.data_ptr(), M, N, DTYPE[x.dtype], None)
    check_status(status, "aka_softmax_rows")
    return y


def rope(launch: Launchers, q: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(q)
    T, H, D = q.shape
    status = launch["aka_rope_forward"](
        q.data_ptr(), cos.data_ptr(), sin.data_ptr(), out.data_ptr(), T, H, D, DTYPE[q.dtype], None
    )
    check_status(status, "aka_rope_forward")
    return out


def cumsum(launch: Launchers, x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    M, N = x.shape
    status = launch["aka_cumsum_rows"](x.data_ptr(), y.data_ptr(), M, N, DTYPE[x.dtype], None)
    check_status(status, "aka_cumsum_rows")
    return y


def histogram(
    launch: Launchers, idx: torch.Tensor, w: torch.Tensor, hist: torch.Tensor
) -> torch.Tensor:
    out = torch.empty_like(hist)
    status = launch["aka_histogram_add"](
        idx.data_ptr(), w.data_ptr(), hist.data_ptr(), out.data_ptr(), idx.shape[0], out.shape[0],
        None,
    )  # fmt: skip
    check_status(status, "aka_histogram_add")
    return out


def gemm(launch: Launchers, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty(M, N, dtype=a.dtype)
    status = launch["aka_gemm"](
        a.data_ptr(), b.data_ptr(), c.data_ptr(), M, N, K, DTYPE[a.dtype], None
    )
    check_status(status, "aka_gemm")
    return c


def embedding_bag_sum(
    launch: Launchers, table: torch.Tensor, indices: torch.Tensor, offsets: torch.Tensor
) -> torch.Tensor:
    V, D = table.shape
    B = offsets.shape[0] - 1
    out = torch.empty(B, D, dtype=table.dtype)
    status = launch["aka_embedding_bag_sum"](
        table.data_ptr(), indices.data_ptr(), offsets.data_ptr(), out.data_ptr(), B, D, V,
        DTYPE[table.dtype], None,
    )  # fmt: skip
    check_status(status, "aka_embedding_bag_sum")
    return out


def depthwise_conv1d(
    launch: Launchers, x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor
) -> torch.Tensor:
    out = torch.empty_like(x)
    Bt, C, L = x.shape
    status = launch["aka_causal_conv1d"](
        x.data_ptr(), weight.data_ptr(), bias.data_ptr(), out.data_ptr(), Bt, C, L,
        weight.shape[1], DTYPE[x.dtype], None,
    )  # fmt: skip
    check_status(status, "aka_causal_conv1d")
    return out


def fake_quant_int8(launch: Launchers, x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    M, N = x.shape
    status = launch["aka_fake_quant_int8"](x.data_ptr(), y.data_ptr(), M, N, DTYPE[x.dtype], None)
    check_status(status, "aka_fake_quant_int8")
    return y


DRIVERS: dict[str, Callable[..., torch.Tensor]] = {
    "hip2hip/layernorm": layernorm,
    "hip2hip/softmax": softmax,
    "hip2hip/rope": rope,
    "hip2hip/cumsum": cumsum,
    "hip2hip/histogram": histogram,
    "hip2hip/gemm": gemm,
    "hip2hip/embedding_bag_sum": embedding_bag_sum,
    "hip2hip/depthwise_conv1d": depthwise_conv1d,
    "hip2hip/fake_quant_int8": fake_quant_int8,
}
