"""instruction2triton/elu_alpha: the PyTorch eager operator the Triton kernel replaces (an ELU
written out in model code, upcast to float32 so that exp(x) - 1 does not cancel in 16 bits: a
cast, a compare, an exp, a subtract, a multiply, a select and a cast back)."""

import torch


def forward(x: torch.Tensor, alpha: float) -> torch.Tensor:
    xf = x.float()
    return torch.where(xf > 0, xf, alpha * (torch.exp(xf) - 1.0)).to(x.dtype)
