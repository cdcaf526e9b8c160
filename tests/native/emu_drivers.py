"""What each native task's binding.cpp does, in Python, for the CPU emulator (emulator.py).

A driver takes the task's launchers (by name) and the task's inputs (CPU tensors) and returns
the output, doing exactly what the task's binding does: allocate, pass data pointers, sizes
and dtype codes, check the returned status. Keep each in step with its binding.cpp.
"""

from __future__ import annotations

from collections.abc import Callable

import torch

Launchers = dict[str, Callable[..., int]]
DTYPE = {torch.float32: 0, torch.float16: 1, torch.bfloat16: 2}


def check_status(status: int, what: str) -> None:
    assert status == 0, f"{what} returned error {status}"


def softmax(launch: Launchers, x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    check_status(launch["aka_softmax_forward"](x.data_ptr(), y.data_ptr(), x.shape[0], x.shape[1],
                                      DTYPE[x.dtype], None), "aka_softmax_forward")  # fmt: skip
    return y


def sgemm(launch: Launchers, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    c = torch.empty(a.shape[0], b.shape[1], dtype=a.dtype)
    status = launch["aka_sgemm"](
        a.data_ptr(), b.data_ptr(), c.data_ptr(), a.shape[0], b.shape[1], a.shape[1], None
    )
    check_status(status, "aka_sgemm")
    return c


def logsumexp(launch: Launchers, x: torch.Tensor) -> torch.Tensor:
    out = torch.empty(x.shape[0], dtype=torch.float32)
    status = launch["aka_logsumexp_forward"](
        x.data_ptr(), out.data_ptr(), x.shape[0], x.shape[1], DTYPE[x.dtype], None
    )
    check_status(status, "aka_logsumexp_forward")
    return out


def transpose(launch: Launchers, x: torch.Tensor) -> torch.Tensor:
    y = torch.empty(x.shape[1], x.shape[0], dtype=x.dtype)
    status = launch["aka_transpose"](
        x.data_ptr(), y.data_ptr(), x.shape[0], x.shape[1], x.element_size(), None
    )
    check_status(status, "aka_transpose")
    return y


def silu_mul(launch: Launchers, x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape[0], x.shape[1] // 2
    out = torch.empty(M, N, dtype=x.dtype)
    status = launch["aka_silu_mul"](x.data_ptr(), out.data_ptr(), M, N, DTYPE[x.dtype], None)
    check_status(status, "aka_silu_mul")
    return out


def rmsnorm(launch: Launchers, x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    M, N = x.shape
    status = launch["aka_rmsnorm_forward"](
        x.data_ptr(), w.data_ptr(), y.data_ptr(), M, N, 1e-6, DTYPE[x.dtype], None
    )
    check_status(status, "aka_rmsnorm_forward")
    return y


def masked_mean(launch: Launchers, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    B, S, D = x.shape
    y = torch.empty(B, D, dtype=x.dtype)
    status = launch["aka_masked_mean"](
        x.data_ptr(), mask.data_ptr(), y.data_ptr(), B, S, D, DTYPE[x.dtype], None
    )
    check_status(status, "aka_masked_mean")
    return y


def layernorm(launch: Launchers, x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """The affine row LayerNorm binding (eps 1e-5) shared by the layernorm tasks of three
    families (hip2hip, cuda2cuda, torch2cuda): the same launcher and signature."""
    y = torch.empty_like(x)
    M, N = x.shape
    status = launch["aka_layernorm_forward"](
        x.data_ptr(), w.data_ptr(), b.data_ptr(), y.data_ptr(), M, N, 1e-5, DTYPE[x.dtype], None
    )
    check_status(status, "aka_layernorm_forward")
    return y


DRIVERS: dict[str, Callable[..., torch.Tensor]] = {
    "torch2hip/masked_mean": masked_mean,
    "torch2cuda/rmsnorm": rmsnorm,
    "hip2hip/silu_mul": silu_mul,
    "hip2hip/transpose": transpose,
    "hip2hip/logsumexp": logsumexp,
    "cuda2cuda/softmax": softmax,
    "cuda2cuda/sgemm": sgemm,
}
