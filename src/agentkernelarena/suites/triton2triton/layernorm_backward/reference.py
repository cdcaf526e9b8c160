"""Reference and inputs for the LayerNorm backward pass (dx, dweight, dbias)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = (torch.randn(M, N, generator=gen, device=device) * 2.0 + 0.5).to(dtype)
    dy = torch.randn(M, N, generator=gen, device=device).to(dtype)
    weight = (torch.rand(N, generator=gen, device=device) + 0.5).to(dtype)
    # The statistics the forward pass saved (float32, biased variance, eps = 1e-5).
    x32 = x.float()
    mean = x32.mean(dim=1)
    rstd = torch.rsqrt(x32.var(dim=1, unbiased=False) + 1e-5)
    return (x, dy, weight, mean, rstd)


def reference(x, dy, weight, mean, rstd):
    acc = mean.dtype
    x, dy, w = x.to(acc), dy.to(acc), weight.to(acc)
    xhat = (x - mean[:, None]) * rstd[:, None]
    wdy = w[None, :] * dy
    c1 = (xhat * wdy).mean(dim=1, keepdim=True)
    c2 = wdy.mean(dim=1, keepdim=True)
    dx = (wdy - xhat * c1 - c2) * rstd[:, None]
    dw = (dy * xhat).sum(dim=0)
    db = dy.sum(dim=0)
    out_dtype = weight.dtype
    return (dx.to(out_dtype), dw.to(out_dtype), db.to(out_dtype))
