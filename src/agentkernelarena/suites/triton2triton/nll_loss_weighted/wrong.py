"""Known-wrong variants of the weighted NLL loss."""

import torch


def ignored_rows_as_class_0(logp: torch.Tensor, target: torch.Tensor,
                            weight: torch.Tensor) -> torch.Tensor:
    t = target.clamp(min=0)
    return -weight[t] * logp.gather(1, t[:, None])[:, 0]


def weight_left_out(logp: torch.Tensor, target: torch.Tensor,
                    weight: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.nll_loss(logp, target, ignore_index=-100, reduction="none")


def weight_by_row(logp: torch.Tensor, target: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    # The class weight indexed by the row instead of the target class.
    rows = torch.arange(logp.shape[0], device=logp.device) % logp.shape[1]
    loss = -weight[rows] * logp.gather(1, target.clamp(min=0)[:, None])[:, 0]
    return torch.where(target == -100, torch.zeros_like(loss), loss)
