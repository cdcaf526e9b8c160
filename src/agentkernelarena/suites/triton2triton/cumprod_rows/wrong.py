"""Known-wrong cumulative product variants `aka tasks check` must see rejected."""

import torch


def exclusive(x: torch.Tensor) -> torch.Tensor:
    out = torch.ones_like(x)
    out[:, 1:] = torch.cumprod(x, dim=-1)[:, :-1]
    return out


def sign_dropped(x: torch.Tensor) -> torch.Tensor:
    # Products of magnitudes (e.g. a log-space scan that forgets the signs).
    return torch.cumprod(x.abs(), dim=-1)
