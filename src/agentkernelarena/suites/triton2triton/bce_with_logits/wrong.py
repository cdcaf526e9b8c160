"""Known-wrong variants of binary cross-entropy with logits and pos_weight."""

import torch


def naive_log_sigmoid(x: torch.Tensor, y: torch.Tensor, pos_weight: torch.Tensor) -> torch.Tensor:
    # -(pw * y * log(sigmoid(x)) + (1 - y) * log(1 - sigmoid(x))): inf (or nan) once sigmoid(x)
    # rounds to 1 or 0.
    p = torch.sigmoid(x)
    return -(pos_weight * y * torch.log(p) + (1 - y) * torch.log(1 - p))


def pos_weight_ignored(x: torch.Tensor, y: torch.Tensor, pos_weight: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.binary_cross_entropy_with_logits(x, y, reduction="none")


def pos_weight_on_negatives(x: torch.Tensor, y: torch.Tensor,
                            pos_weight: torch.Tensor) -> torch.Tensor:
    # The weight applied to the (1 - y) term instead of the y term.
    sp_neg = torch.nn.functional.softplus(-x)  # -log(sigmoid(x))
    sp_pos = torch.nn.functional.softplus(x)   # -log(1 - sigmoid(x))
    return y * sp_neg + pos_weight * (1 - y) * sp_pos
