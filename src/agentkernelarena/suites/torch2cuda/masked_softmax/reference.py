"""Reference and inputs for a softmax over the last dimension with a boolean mask.

mask is True where a position is excluded: its probability is 0 and it takes no part in the
normalization; a row whose positions are all excluded is all zeros. Computed in float32
(float64 for float64 inputs) and returned in x's dtype.

About one row in eight (and always the last one when there are several) is fully masked; the
other rows exclude about 30% of their positions at random (not a prefix). The mask itself must
be read whole, so `bytes` counts it and y, not the excluded scores.
"""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(M, N, generator=gen, device=device).mul_(3.0).to(dtype)
    mask = torch.rand(M, N, generator=gen, device=device) < 0.3
    dead = torch.rand(M, 1, generator=gen, device=device) < 0.125
    if M > 1:
        dead[M - 1] = True
    return (x, mask | dead)


def reference(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    xf = x.to(acc)
    keep = ~mask
    m = torch.where(keep, xf, torch.full_like(xf, float("-inf"))).amax(-1, keepdim=True)
    m = torch.where(torch.isfinite(m), m, torch.zeros_like(m))
    e = torch.where(keep, torch.exp(xf - m), torch.zeros_like(xf))
    s = e.sum(-1, keepdim=True)
    return (e / torch.where(s > 0, s, torch.ones_like(s))).to(x.dtype)


def min_bytes(config: dict, x: torch.Tensor, mask: torch.Tensor) -> int:
    """What a correct kernel must move: the mask, the kept scores, and y."""
    return int((~mask).sum()) * x.element_size() + mask.numel() * (1 + x.element_size())


def exercised(config: dict, x: torch.Tensor, mask: torch.Tensor) -> dict:
    """The description's rules, seen in these inputs."""
    prefix = torch.cumprod(mask.to(torch.int32), dim=1).bool()
    return {"a fully masked row": bool(mask.all(-1).any()),
            "a partly masked row": bool((mask.any(-1) & ~mask.all(-1)).any()),
            "mask not a prefix": bool((prefix != mask).any())}
