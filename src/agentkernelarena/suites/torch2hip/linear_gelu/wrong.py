"""Known-wrong variants of gelu(x @ w^T + b) (same arguments as the reference)."""

import torch
import torch.nn.functional as F


def tanh_gelu(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    z = x.double() @ w.double().T + b.double()
    return F.gelu(z, approximate="tanh").to(x.dtype)


def bias_dropped(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return F.gelu(x.double() @ w.double().T).to(x.dtype)


def weight_not_transposed(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    # w read as if it were K x N (row-major): its memory taken with the wrong layout.
    wt = w.double().reshape(w.shape[1], w.shape[0])
    return F.gelu(x.double() @ wt + b.double()).to(x.dtype)
