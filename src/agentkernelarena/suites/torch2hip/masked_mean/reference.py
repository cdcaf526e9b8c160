"""Reference and inputs for masked mean pooling over the sequence dimension.

The masks are padding masks: each sequence keeps a random-length prefix (at least one token).
"""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, S, D = config["B"], config["S"], config["D"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(B, S, D, generator=gen, device=device).to(dtype)
    lengths = torch.randint(1, S + 1, (B, 1), generator=gen, device=device)
    mask = torch.arange(S, device=device).unsqueeze(0) < lengths
    return (x, mask)


def reference(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    m = mask.unsqueeze(-1).to(x.dtype)
    return (x * m).sum(dim=1) / m.sum(dim=1).clamp(min=1)
