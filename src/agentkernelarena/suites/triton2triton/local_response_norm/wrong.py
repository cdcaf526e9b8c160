"""Known-wrong variants of local_response_norm that `aka tasks check` must see rejected."""

import torch
import torch.nn.functional as F


def _window_sum(x, lo, hi):
    """sum over c' in [c - lo, c + hi] of x[c']^2, zero outside the channels."""
    sq = F.pad(x * x, (0, 0, 0, 0, lo, hi))
    C = x.shape[1]
    return sum(sq[:, j:j + C] for j in range(lo + hi + 1))


def alpha_not_divided(x, size, alpha, beta, k):
    s = _window_sum(x, size // 2, (size - 1) // 2)
    return x / (k + alpha * s) ** beta


def window_not_centred(x, size, alpha, beta, k):
    s = _window_sum(x, 0, size - 1)
    return x / (k + alpha / size * s) ** beta


def beta_ignored(x, size, alpha, beta, k):
    s = _window_sum(x, size // 2, (size - 1) // 2)
    return x / (k + alpha / size * s)


def edges_divided_by_valid_count(x, size, alpha, beta, k):
    # At the channel edges the sum divided by the channels inside the window instead of size.
    lo, hi = size // 2, (size - 1) // 2
    s = _window_sum(x, lo, hi)
    c = torch.arange(x.shape[1], device=x.device)
    count = (torch.clamp(c + hi, max=x.shape[1] - 1) - torch.clamp(c - lo, min=0) + 1)
    return x / (k + alpha * s / count.to(x.dtype)[None, :, None, None]) ** beta
