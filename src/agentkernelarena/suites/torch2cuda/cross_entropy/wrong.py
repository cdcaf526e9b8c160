"""Known-wrong variants `aka tasks check` must see rejected: the maximum logit used in place of
the log-sum-exp (a missing exp-sum), and the softmax probability's negative instead of its
negative logarithm."""

import torch

IGNORE_INDEX = -100


def max_for_logsumexp(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if logits.dtype == torch.float64 else torch.float32
    lf = logits.to(acc)
    picked = lf.gather(1, targets.clamp(min=0)[:, None])[:, 0]
    loss = lf.amax(-1) - picked
    return torch.where(targets != IGNORE_INDEX, loss, torch.zeros_like(loss))


def ignored_rows_scored(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    # The ignore index wrapped around Python-style (-100 -> V - 100) instead of skipped.
    acc = torch.float64 if logits.dtype == torch.float64 else torch.float32
    lf = logits.to(acc)
    t = torch.where(targets < 0, targets + lf.shape[1], targets).clamp(0, lf.shape[1] - 1)
    return torch.logsumexp(lf, dim=-1) - lf.gather(1, t[:, None])[:, 0]
