"""Known-wrong variants `aka tasks check` must see rejected: ignored tokens scored as class 0
(the target clamped instead of masked), and the log-sum-exp taken in base 2."""

import torch


def ignore_as_class0(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.cross_entropy(logits, targets.clamp(min=0), reduction="none")


def lse_base2(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    m = logits.amax(-1, keepdim=True)
    lse = (m + torch.log2(torch.exp2(logits - m).sum(-1, keepdim=True)))[:, 0]
    picked = logits.gather(1, targets.clamp(min=0)[:, None])[:, 0]
    return torch.where(targets == -100, torch.zeros_like(lse), lse - picked)
