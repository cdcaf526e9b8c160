"""Reference and inputs for masked mean pooling over the sequence dimension.

Each sequence keeps a random number of positions between half of S and all of S, at random
places (not a prefix: padding on either side, dropped tokens), so a correct kernel reads at
least B * ceil(S / 2) rows of x: what task.yaml's `bytes` counts.
"""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, S, D = config["B"], config["S"], config["D"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(B, S, D, generator=gen, device=device).to(dtype)
    kept = torch.randint((S + 1) // 2, S + 1, (B, 1), generator=gen, device=device)
    rank = torch.rand(B, S, generator=gen, device=device).argsort(dim=1).argsort(dim=1)
    mask = rank < kept
    return (x, mask)


def reference(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    m = mask.unsqueeze(-1).to(x.dtype)
    return (x * m).sum(dim=1) / m.sum(dim=1).clamp(min=1)


def min_bytes(config: dict, x: torch.Tensor, mask: torch.Tensor) -> int:
    """What a correct kernel must move: the mask, the kept rows of x, and y."""
    row = config["D"] * x.element_size()
    return int(mask.sum()) * row + mask.numel() + config["B"] * row


def exercised(config: dict, x: torch.Tensor, mask: torch.Tensor) -> dict:
    """The description's rule, seen in these inputs: a mask that is not a prefix."""
    prefix = torch.cumprod(mask.to(torch.int32), dim=1).bool()
    return {"mask not a prefix": bool((prefix != mask).any())}
