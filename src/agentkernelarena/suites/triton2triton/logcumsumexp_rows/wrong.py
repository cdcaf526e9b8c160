"""Known-wrong log-cumsum-exp variants `aka tasks check` must see rejected."""

import torch


def no_max_shift(x: torch.Tensor) -> torch.Tensor:
    # exp without a max-shift, in float32 (what a kernel computes): overflows on large rows.
    return torch.log(torch.cumsum(torch.exp(x.float()), dim=-1)).to(x.dtype)


def block_reset(x: torch.Tensor) -> torch.Tensor:
    # The scan restarted every 1024 elements (a block scan without the carry between blocks).
    M, N = x.shape
    pad = (-N) % 1024
    xp = torch.nn.functional.pad(x, (0, pad)).reshape(M, -1, 1024)
    return torch.logcumsumexp(xp, dim=-1).reshape(M, -1)[:, :N].contiguous()
