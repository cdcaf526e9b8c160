"""Known-wrong triplet margin loss variants `aka tasks check` must see rejected."""

import torch


def _loss(d_ap: torch.Tensor, d_an: torch.Tensor, margin: float) -> torch.Tensor:
    return torch.clamp(d_ap - d_an + margin, min=0.0)


def eps_outside(anchor, positive, negative, margin, eps):
    # eps added to the norm instead of to the difference.
    def d(x, y):
        return torch.sqrt(((x.double() - y.double()) ** 2).sum(-1)) + eps
    loss = _loss(d(anchor, positive), d(anchor, negative), margin)
    return (loss.float(), loss.mean().float())


def squared_distance(anchor, positive, negative, margin, eps):
    # The squared Euclidean distance (no square root).
    def d(x, y):
        return ((x.double() - y.double() + eps) ** 2).sum(-1)
    loss = _loss(d(anchor, positive), d(anchor, negative), margin)
    return (loss.float(), loss.mean().float())


def mean_over_active(anchor, positive, negative, margin, eps):
    # The mean taken over the rows with a positive loss only.
    def d(x, y):
        return torch.sqrt(((x.double() - y.double() + eps) ** 2).sum(-1))
    loss = _loss(d(anchor, positive), d(anchor, negative), margin)
    active = (loss > 0).double().sum().clamp(min=1.0)
    return (loss.float(), (loss.sum() / active).float())
