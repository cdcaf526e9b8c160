"""Reference and inputs for the LayerNorm backward pass (dx, dgamma, dbeta)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    M, N = config["M"], config["N"]
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    # Rows with their own offsets and scales, as LayerNorm sees them.
    shift = torch.randn(M, 1, generator=gen, device=device).mul_(3.0)
    scale = torch.rand(M, 1, generator=gen, device=device).mul_(2.0).add_(0.5)
    x = (torch.randn(M, N, generator=gen, device=device) * scale + shift).to(dtype)
    dy = torch.randn(M, N, generator=gen, device=device).to(dtype)
    weight = (torch.randn(N, generator=gen, device=device).mul_(0.5).add_(1.0)).to(dtype)
    xf = x.to(torch.float32)
    mean = xf.mean(-1)
    rstd = torch.rsqrt(xf.var(-1, unbiased=False) + 1e-5)
    return (dy, x, weight, mean, rstd)


def reference(dy, x, weight, mean, rstd) -> tuple:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    dyf, xf, wf = dy.to(acc), x.to(acc), weight.to(acc)
    mu, rs = mean.to(acc)[:, None], rstd.to(acc)[:, None]
    xhat = (xf - mu) * rs
    g = dyf * wf
    dx = rs * (g - g.mean(-1, keepdim=True) - xhat * (g * xhat).mean(-1, keepdim=True))
    return (dx.to(x.dtype), (dyf * xhat).sum(0), dyf.sum(0))
