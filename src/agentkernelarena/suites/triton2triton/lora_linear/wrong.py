"""Known-wrong variants `aka tasks check` must see rejected: the LoRA scale (alpha / R) left out,
and the adapter path dropped altogether."""

import torch


def scale_left_out(x: torch.Tensor, w: torch.Tensor, a: torch.Tensor, b: torch.Tensor,
                   scale: float) -> torch.Tensor:
    return x @ w.T + (x @ a.T) @ b.T


def adapter_left_out(x: torch.Tensor, w: torch.Tensor, a: torch.Tensor, b: torch.Tensor,
                     scale: float) -> torch.Tensor:
    return x @ w.T
