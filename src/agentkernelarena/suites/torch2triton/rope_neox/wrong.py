"""Known-wrong variants `aka tasks check` must see rejected: the GPT-J (interleaved pairs)
rotary embedding instead of the half-split one, and the inverse rotation (sin's sign flipped)."""

import torch


def _gptj(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    half = x.shape[-1] // 2
    c, s = cos[..., :half], sin[..., :half]
    x1, x2 = x[..., 0::2], x[..., 1::2]
    return torch.stack((x1 * c - x2 * s, x2 * c + x1 * s), dim=-1).flatten(-2)


def interleaved(q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> tuple:
    c, s = cos.unsqueeze(2), sin.unsqueeze(2)
    return (_gptj(q, c, s), _gptj(k, c, s))


def inverse_rotation(q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor,
                     sin: torch.Tensor) -> tuple:
    c, s = cos.unsqueeze(2), sin.unsqueeze(2)

    def rot(x):
        half = x.shape[-1] // 2
        return x * c - torch.cat((-x[..., half:], x[..., :half]), dim=-1) * s
    return (rot(q), rot(k))
