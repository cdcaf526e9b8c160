"""Emulator drivers for the torch2hip tasks: what each task's binding.cpp does, in Python.

Each function takes the task's launchers (by name) and the task's inputs (CPU tensors) and
returns the output, doing exactly what the binding does: allocate, pass data pointers, sizes
and dtype codes, check the returned status. Keep each in step with its binding.cpp.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
from emu_drivers import DTYPE, Launchers, check_status


def gelu_bias(launch: Launchers, x: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    M, N = x.shape
    status = launch["aka_gelu_bias"](
        x.data_ptr(), b.data_ptr(), y.data_ptr(), M, N, DTYPE[x.dtype], None
    )
    check_status(status, "aka_gelu_bias")
    return y


def swiglu(launch: Launchers, x: torch.Tensor) -> torch.Tensor:
    N = x.shape[-1] // 2
    out = torch.empty(*x.shape[:-1], N, dtype=x.dtype)
    status = launch["aka_swiglu"](x.data_ptr(), out.data_ptr(), out.numel() // N, N,
                                  DTYPE[x.dtype], None)  # fmt: skip
    check_status(status, "aka_swiglu")
    return out


def add_rmsnorm(
    launch: Launchers, x: torch.Tensor, residual: torch.Tensor, w: torch.Tensor
) -> torch.Tensor:
    y = torch.empty_like(x)
    M, N = x.shape
    status = launch["aka_add_rmsnorm"](x.data_ptr(), residual.data_ptr(), w.data_ptr(),
                                       y.data_ptr(), M, N, 1e-6, DTYPE[x.dtype], None)  # fmt: skip
    check_status(status, "aka_add_rmsnorm")
    return y


def add_layernorm(
    launch: Launchers, x: torch.Tensor, residual: torch.Tensor, w: torch.Tensor, b: torch.Tensor
) -> torch.Tensor:
    y = torch.empty_like(x)
    M, N = x.shape
    status = launch["aka_add_layernorm"](x.data_ptr(), residual.data_ptr(), w.data_ptr(),
                                         b.data_ptr(), y.data_ptr(), M, N, 1e-5, DTYPE[x.dtype],
                                         None)  # fmt: skip
    check_status(status, "aka_add_layernorm")
    return y


def l2_normalize(launch: Launchers, x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    M, N = x.shape
    status = launch["aka_l2_normalize"](
        x.data_ptr(), y.data_ptr(), M, N, 1e-12, DTYPE[x.dtype], None
    )
    check_status(status, "aka_l2_normalize")
    return y


def scaled_masked_softmax(
    launch: Launchers, scores: torch.Tensor, mask: torch.Tensor
) -> torch.Tensor:
    y = torch.empty_like(scores)
    B, H, S, _ = scores.shape
    status = launch["aka_scaled_masked_softmax"](scores.data_ptr(), mask.data_ptr(), y.data_ptr(),
                                                 B, H, S, 128**-0.5, DTYPE[scores.dtype],
                                                 None)  # fmt: skip
    check_status(status, "aka_scaled_masked_softmax")
    return y


def cross_entropy(launch: Launchers, logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    M, V = logits.shape
    loss = torch.empty(M, dtype=logits.dtype)
    status = launch["aka_cross_entropy"](logits.data_ptr(), targets.data_ptr(), loss.data_ptr(),
                                         M, V, -100, DTYPE[logits.dtype], None)  # fmt: skip
    check_status(status, "aka_cross_entropy")
    return loss


def rope(launch: Launchers, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    T, H, D = x.shape
    status = launch["aka_rope"](x.data_ptr(), cos.data_ptr(), sin.data_ptr(), y.data_ptr(), T, H,
                                D, DTYPE[x.dtype], None)  # fmt: skip
    check_status(status, "aka_rope")
    return y


def group_norm_silu(
    launch: Launchers, x: torch.Tensor, w: torch.Tensor, b: torch.Tensor
) -> torch.Tensor:
    y = torch.empty_like(x)
    N, C, H, W = x.shape
    status = launch["aka_group_norm_silu"](x.data_ptr(), w.data_ptr(), b.data_ptr(), y.data_ptr(),
                                           N, C, H * W, 32, 1e-6, DTYPE[x.dtype],
                                           None)  # fmt: skip
    check_status(status, "aka_group_norm_silu")
    return y


DRIVERS: dict[str, Callable[..., torch.Tensor]] = {
    "torch2hip/gelu_bias": gelu_bias,
    "torch2hip/swiglu": swiglu,
    "torch2hip/add_rmsnorm": add_rmsnorm,
    "torch2hip/add_layernorm": add_layernorm,
    "torch2hip/l2_normalize": l2_normalize,
    "torch2hip/scaled_masked_softmax": scaled_masked_softmax,
    "torch2hip/cross_entropy": cross_entropy,
    "torch2hip/rope": rope,
    "torch2hip/group_norm_silu": group_norm_silu,
}
