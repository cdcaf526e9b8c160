"""Reference and inputs for LayerNorm without affine, returning float32 (mean, rstd)."""

import torch

EPS = 1e-5


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    shift = torch.randn(M, 1, generator=gen, device=device)
    spread = torch.rand(M, 1, generator=gen, device=device).mul_(1.75).add_(0.25)
    x = (torch.randn(M, N, generator=gen, device=device) * spread + shift).to(dtype)
    return (x,)


def reference(x: torch.Tensor):
    stats_dtype = torch.promote_types(x.dtype, torch.float32)
    xf = x.to(stats_dtype)
    mean = xf.mean(dim=-1)
    var = (xf - mean[:, None]).pow(2).mean(dim=-1)
    rstd = torch.rsqrt(var + EPS)
    y = ((xf - mean[:, None]) * rstd[:, None]).to(x.dtype)
    return (y, mean, rstd)
