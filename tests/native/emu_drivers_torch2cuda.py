"""What each torch2cuda task's binding.cpp does, in Python, for the CPU emulator (emulator.py).

A driver takes the task's launchers (by name) and the task's inputs (CPU tensors) and returns
the output, doing exactly what the task's binding does: allocate, pass data pointers, sizes,
scalars and dtype codes, check the returned status. Keep each in step with its binding.cpp.
(torch2cuda/rmsnorm's driver lives in emu_drivers.py.)
"""

from __future__ import annotations

from collections.abc import Callable

import torch
from emu_drivers import DTYPE, Launchers, check_status, layernorm


def log_softmax(launch: Launchers, x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    M, N = x.shape
    status = launch["aka_log_softmax_forward"](
        x.data_ptr(), y.data_ptr(), M, N, DTYPE[x.dtype], None
    )
    check_status(status, "aka_log_softmax_forward")
    return y


def cosine_similarity(launch: Launchers, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    M, N = a.shape
    out = torch.empty(M, dtype=a.dtype)
    status = launch["aka_cosine_similarity"](
        a.data_ptr(), b.data_ptr(), out.data_ptr(), M, N, 1e-8, DTYPE[a.dtype], None
    )
    check_status(status, "aka_cosine_similarity")
    return out


def kl_div_rows(launch: Launchers, logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    M, N = logits.shape
    out = torch.empty(M, dtype=logits.dtype)
    status = launch["aka_kl_div_rows"](
        logits.data_ptr(), target.data_ptr(), out.data_ptr(), M, N, DTYPE[logits.dtype], None
    )
    check_status(status, "aka_kl_div_rows")
    return out


def geglu(launch: Launchers, x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape[0], x.shape[1] // 2
    out = torch.empty(M, N, dtype=x.dtype)
    status = launch["aka_geglu"](x.data_ptr(), out.data_ptr(), M, N, DTYPE[x.dtype], None)
    check_status(status, "aka_geglu")
    return out


def bias_gelu_residual(
    launch: Launchers, x: torch.Tensor, b: torch.Tensor, residual: torch.Tensor
) -> torch.Tensor:
    y = torch.empty_like(x)
    M, N = x.shape
    status = launch["aka_bias_gelu_residual"](
        x.data_ptr(), b.data_ptr(), residual.data_ptr(), y.data_ptr(), M, N, DTYPE[x.dtype], None
    )
    check_status(status, "aka_bias_gelu_residual")
    return y


def sigmoid_focal_loss(launch: Launchers, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
    loss = torch.empty_like(x)
    status = launch["aka_sigmoid_focal_loss"](
        x.data_ptr(), t.data_ptr(), loss.data_ptr(), x.numel(), 0.25, 2.0, DTYPE[x.dtype], None
    )
    check_status(status, "aka_sigmoid_focal_loss")
    return loss


DRIVERS: dict[str, Callable[..., torch.Tensor]] = {
    "torch2cuda/layernorm": layernorm,
    "torch2cuda/log_softmax": log_softmax,
    "torch2cuda/cosine_similarity": cosine_similarity,
    "torch2cuda/kl_div_rows": kl_div_rows,
    "torch2cuda/geglu": geglu,
    "torch2cuda/bias_gelu_residual": bias_gelu_residual,
    "torch2cuda/sigmoid_focal_loss": sigmoid_focal_loss,
}
