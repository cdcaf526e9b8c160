"""instruction2triton/fake_quant_grid: the PyTorch eager operator the Triton kernel replaces
(fake quantization as quantization-aware-training code writes it: a divide, a round, a clamp
and a multiply, one kernel each)."""

import torch


def forward(x: torch.Tensor, step: float, qmin: int, qmax: int) -> torch.Tensor:
    return torch.clamp(torch.round(x / step), qmin, qmax) * step
