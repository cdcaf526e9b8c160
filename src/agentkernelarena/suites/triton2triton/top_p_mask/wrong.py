"""Known-wrong top-p variants `aka tasks check` must see rejected."""

import torch


def inclusive_cumsum(probs: torch.Tensor, top_p: torch.Tensor) -> torch.Tensor:
    # Keeps tokens whose inclusive prefix sum stays below top_p: drops the token that crosses
    # it (and leaves nothing when the first token alone exceeds top_p).
    keep = probs.cumsum(dim=1) < top_p[:, None]
    keep[:, 0] = True
    kept = torch.where(keep, probs, torch.zeros_like(probs))
    return kept / kept.sum(dim=1, keepdim=True)


def not_renormalized(probs: torch.Tensor, top_p: torch.Tensor) -> torch.Tensor:
    excl = probs.cumsum(dim=1) - probs
    return torch.where(excl < top_p[:, None], probs, torch.zeros_like(probs))
