"""Emulator drivers for the torch2hip tasks of batch b: what each task's binding.cpp does, in
Python.

Each function takes the task's launchers (by name) and the task's inputs (CPU tensors) and
returns the output, doing exactly what the binding does: allocate, pass data pointers, sizes
and dtype codes, check the returned status. Keep each in step with its binding.cpp.
test_suites_emulated.py merges the DRIVERS of every emu_drivers*.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch
from emu_drivers import DTYPE, Launchers, check_status


def mse_loss_rows(launch: Launchers, pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    M, N = pred.shape
    out = torch.empty(M, dtype=pred.dtype)
    status = launch["aka_mse_loss_rows"](pred.data_ptr(), target.data_ptr(), out.data_ptr(), M, N,
                                         DTYPE[pred.dtype], None)  # fmt: skip
    check_status(status, "aka_mse_loss_rows")
    return out


def max_pool2d(launch: Launchers, x: torch.Tensor) -> torch.Tensor:
    N, C, H, W = x.shape
    y = torch.empty(N, C, H // 2, W // 2, dtype=x.dtype)
    status = launch["aka_max_pool2d"](x.data_ptr(), y.data_ptr(), N * C, H, W, DTYPE[x.dtype],
                                      None)  # fmt: skip
    check_status(status, "aka_max_pool2d")
    return y


def huber_loss(launch: Launchers, pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(pred)
    status = launch["aka_huber_loss"](pred.data_ptr(), target.data_ptr(), out.data_ptr(),
                                      pred.numel(), 0.5, DTYPE[pred.dtype], None)  # fmt: skip
    check_status(status, "aka_huber_loss")
    return out


def cumsum_reverse(launch: Launchers, x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    M, N = x.shape
    check_status(launch["aka_cumsum_reverse"](x.data_ptr(), y.data_ptr(), M, N, None),
                 "aka_cumsum_reverse")  # fmt: skip
    return y


def argmax_rows(launch: Launchers, x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty(M, dtype=torch.int64)
    status = launch["aka_argmax_rows"](x.data_ptr(), out.data_ptr(), M, N, DTYPE[x.dtype], None)
    check_status(status, "aka_argmax_rows")
    return out


def instance_norm(
    launch: Launchers, x: torch.Tensor, w: torch.Tensor, b: torch.Tensor
) -> torch.Tensor:
    N, C, H, W = x.shape
    y = torch.empty_like(x)
    status = launch["aka_instance_norm"](x.data_ptr(), w.data_ptr(), b.data_ptr(), y.data_ptr(),
                                         N * C, C, H * W, 1e-5, DTYPE[x.dtype],
                                         None)  # fmt: skip
    check_status(status, "aka_instance_norm")
    return y


def adaptive_avg_pool2d(launch: Launchers, x: torch.Tensor) -> torch.Tensor:
    N, C, H, W = x.shape
    y = torch.empty(N, C, 7, 7, dtype=x.dtype)
    status = launch["aka_adaptive_avg_pool2d"](x.data_ptr(), y.data_ptr(), N * C, H, W, 7, 7,
                                               DTYPE[x.dtype], None)  # fmt: skip
    check_status(status, "aka_adaptive_avg_pool2d")
    return y


def batchnorm_train_forward(
    launch: Launchers, x: torch.Tensor, w: torch.Tensor, b: torch.Tensor
) -> torch.Tensor:
    N, C, H, W = x.shape
    y = torch.empty_like(x)
    workspace = torch.zeros(64 * C + 1024, dtype=torch.float32)
    status = launch["aka_batchnorm_train_forward"](x.data_ptr(), w.data_ptr(), b.data_ptr(),
                                                   y.data_ptr(), workspace.data_ptr(),
                                                   workspace.numel(), N, C, H * W, 1e-5,
                                                   DTYPE[x.dtype], None)  # fmt: skip
    check_status(status, "aka_batchnorm_train_forward")
    return y


def layernorm_residual(
    launch: Launchers, x: torch.Tensor, residual: torch.Tensor, w: torch.Tensor, b: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    M, N = x.shape
    h, y = torch.empty_like(x), torch.empty_like(x)
    status = launch["aka_layernorm_residual"](x.data_ptr(), residual.data_ptr(), w.data_ptr(),
                                              b.data_ptr(), h.data_ptr(), y.data_ptr(), M, N,
                                              1e-5, DTYPE[x.dtype], None)  # fmt: skip
    check_status(status, "aka_layernorm_residual")
    return h, y


def bmm_softmax(launch: Launchers, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    B, M, K = a.shape
    N = b.shape[1]
    y = torch.empty(B, M, N, dtype=a.dtype)
    status = launch["aka_bmm_softmax"](a.data_ptr(), b.data_ptr(), y.data_ptr(), B, M, N, K,
                                       DTYPE[a.dtype], None)  # fmt: skip
    check_status(status, "aka_bmm_softmax")
    return y


def linear_gelu(
    launch: Launchers, x: torch.Tensor, w: torch.Tensor, b: torch.Tensor
) -> torch.Tensor:
    M, K = x.shape
    N = w.shape[0]
    y = torch.empty(M, N, dtype=x.dtype)
    status = launch["aka_linear_gelu"](x.data_ptr(), w.data_ptr(), b.data_ptr(), y.data_ptr(), M,
                                       N, K, DTYPE[x.dtype], None)  # fmt: skip
    check_status(status, "aka_linear_gelu")
    return y


def mlp_block(launch: Launchers, x: torch.Tensor, w1: torch.Tensor, b1: torch.Tensor,
              w2: torch.Tensor, b2: torch.Tensor) -> torch.Tensor:
    M, K = x.shape
    H, N = w1.shape[0], w2.shape[0]
    y = torch.empty(M, N, dtype=x.dtype)
    workspace = torch.empty(M, H, dtype=torch.float32)
    status = launch["aka_mlp_block"](x.data_ptr(), w1.data_ptr(), b1.data_ptr(), w2.data_ptr(),
                                     b2.data_ptr(), y.data_ptr(), workspace.data_ptr(), M, K, H,
                                     N, DTYPE[x.dtype], None)  # fmt: skip
    check_status(status, "aka_mlp_block")
    return y


def attention_block_causal(
    launch: Launchers, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor
) -> torch.Tensor:
    B, H, S, D = q.shape
    out = torch.empty_like(q)
    status = launch["aka_attention_causal"](q.data_ptr(), k.data_ptr(), v.data_ptr(),
                                            out.data_ptr(), B * H, S, D, D**-0.5,
                                            None)  # fmt: skip
    check_status(status, "aka_attention_causal")
    return out


def conv2d_3x3_relu(
    launch: Launchers, x: torch.Tensor, w: torch.Tensor, b: torch.Tensor
) -> torch.Tensor:
    N, Cin, H, W = x.shape
    Cout = w.shape[0]
    y = torch.empty(N, Cout, H, W, dtype=x.dtype)
    status = launch["aka_conv2d_3x3_relu"](x.data_ptr(), w.data_ptr(), b.data_ptr(),
                                           y.data_ptr(), N, Cin, Cout, H, W, DTYPE[x.dtype],
                                           None)  # fmt: skip
    check_status(status, "aka_conv2d_3x3_relu")
    return y


DRIVERS: dict[str, Callable[..., Any]] = {
    "torch2hip/mse_loss_rows": mse_loss_rows,
    "torch2hip/max_pool2d": max_pool2d,
    "torch2hip/huber_loss": huber_loss,
    "torch2hip/cumsum_reverse": cumsum_reverse,
    "torch2hip/argmax_rows": argmax_rows,
    "torch2hip/instance_norm": instance_norm,
    "torch2hip/adaptive_avg_pool2d": adaptive_avg_pool2d,
    "torch2hip/batchnorm_train_forward": batchnorm_train_forward,
    "torch2hip/layernorm_residual": layernorm_residual,
    "torch2hip/bmm_softmax": bmm_softmax,
    "torch2hip/linear_gelu": linear_gelu,
    "torch2hip/mlp_block": mlp_block,
    "torch2hip/attention_block_causal": attention_block_causal,
    "torch2hip/conv2d_3x3_relu": conv2d_3x3_relu,
}
