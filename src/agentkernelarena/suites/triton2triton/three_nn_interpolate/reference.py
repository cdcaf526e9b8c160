"""Reference and inputs for PointNet++'s three-nearest-neighbour feature interpolation."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, C, M, N = config["B"], config["C"], config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    feats = torch.randn(B, C, M, generator=gen, device=device).to(dtype)
    # Three distinct known points per unknown point, in random places of the cloud.
    i0 = torch.randint(0, M, (B, N), generator=gen, device=device)
    a = torch.randint(1, M, (B, N), generator=gen, device=device)
    b = torch.randint(1, M - 1, (B, N), generator=gen, device=device)
    b = torch.where(b >= a, b + 1, b)
    idx = torch.stack([i0, (i0 + a) % M, (i0 + b) % M], dim=-1)
    # Inverse-distance weights as PointNet++ computes them: positive, summing to one per point.
    inv = 1.0 / (torch.rand(B, N, 3, generator=gen, device=device) * 0.2 + 1e-3)
    weight = inv / inv.sum(-1, keepdim=True)
    return (feats, idx, weight)


def reference(feats: torch.Tensor, idx: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    B, C, M = feats.shape
    N = idx.shape[1]
    g = torch.gather(feats, 2, idx.reshape(B, 1, N * 3).expand(B, C, N * 3))
    out = (g.reshape(B, C, N, 3) * weight.to(g.dtype)[:, None]).sum(-1)
    return out.to(feats.dtype)
