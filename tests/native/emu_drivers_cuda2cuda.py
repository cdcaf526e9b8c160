"""What the cuda2cuda tasks' binding.cpp files do, in Python, for the CPU emulator.

One driver per task (style of emu_drivers.py): allocate the output as the binding does, pass
data pointers, sizes and dtype codes to the launcher, check the returned status. Keep each in
step with its binding.cpp.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
from emu_drivers import DTYPE, Launchers, check_status, layernorm


def gemv(launch: Launchers, a: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    y = torch.empty(a.shape[0], dtype=a.dtype)
    status = launch["aka_gemv"](
        a.data_ptr(), x.data_ptr(), y.data_ptr(), a.shape[0], a.shape[1], DTYPE[a.dtype], None
    )
    check_status(status, "aka_gemv")
    return y


def cumsum(launch: Launchers, x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    status = launch["aka_cumsum"](x.data_ptr(), y.data_ptr(), x.shape[0], x.shape[1],
                                  DTYPE[x.dtype], None)  # fmt: skip
    check_status(status, "aka_cumsum")
    return y


def histogram(launch: Launchers, x: torch.Tensor, edges: torch.Tensor) -> torch.Tensor:
    B = edges.shape[0] - 1
    counts = torch.zeros(B, dtype=torch.int32)
    status = launch["aka_histogram"](x.data_ptr(), edges.data_ptr(), counts.data_ptr(),
                                     x.shape[0], B, None)  # fmt: skip
    check_status(status, "aka_histogram")
    return counts


def depthwise_conv2d(launch: Launchers, x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    N, C, H, W = x.shape
    status = launch["aka_depthwise_conv2d"](
        x.data_ptr(), w.data_ptr(), y.data_ptr(), N, C, H, W, w.shape[-1], DTYPE[x.dtype], None
    )
    check_status(status, "aka_depthwise_conv2d")
    return y


def embedding_bag_sum(
    launch: Launchers, weight: torch.Tensor, indices: torch.Tensor, offsets: torch.Tensor
) -> torch.Tensor:
    (V, D), L, B = weight.shape, indices.shape[0], offsets.shape[0]
    out = torch.empty(B, D, dtype=weight.dtype)
    if L == 0:
        return out.zero_()
    status = launch["aka_embedding_bag_sum"](
        weight.data_ptr(), indices.data_ptr(), offsets.data_ptr(), out.data_ptr(), V, D, L, B,
        DTYPE[weight.dtype], None,
    )  # fmt: skip
    check_status(status, "aka_embedding_bag_sum")
    return out


DRIVERS: dict[str, Callable[..., torch.Tensor]] = {
    "cuda2cuda/layernorm": layernorm,
    "cuda2cuda/gemv": gemv,
    "cuda2cuda/cumsum": cumsum,
    "cuda2cuda/histogram": histogram,
    "cuda2cuda/depthwise_conv2d": depthwise_conv2d,
    "cuda2cuda/embedding_bag_sum": embedding_bag_sum,
}
