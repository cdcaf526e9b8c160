"""Reference and inputs for the RMSNorm backward task (dx and dweight)."""

import torch

EPS = 1e-6


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    scale = torch.rand(M, 1, generator=gen, device=device).mul_(2.0).add_(0.25)
    scale[3::7] = 1.0e-3  # rows whose mean square is of the order of eps
    x = (torch.randn(M, N, generator=gen, device=device) * scale).to(dtype)
    weight = torch.randn(N, generator=gen, device=device).mul_(0.5).add_(1.0).to(dtype)
    dy = torch.randn(M, N, generator=gen, device=device).to(dtype)
    return (x, weight, dy)


def reference(x: torch.Tensor, weight: torch.Tensor, dy: torch.Tensor) -> tuple:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    xa, w, g = x.to(acc), weight.to(acc), dy.to(acc)
    rstd = torch.rsqrt(xa.pow(2).mean(dim=1, keepdim=True) + EPS)
    xhat = xa * rstd
    wdy = w[None, :] * g
    dx = rstd * (wdy - xhat * (wdy * xhat).mean(dim=1, keepdim=True))
    dw = (g * xhat).sum(dim=0)
    return (dx.to(x.dtype), dw.to(weight.dtype))


def exercised(config: dict, x: torch.Tensor, weight: torch.Tensor, dy: torch.Tensor) -> dict:
    """The description's rules, seen in these inputs (`aka tasks check`)."""
    ms = x.float().pow(2).mean(dim=-1)
    return {"a row whose mean square is below 10 * eps": bool((ms < 10 * EPS).any()),
            "N not a power of two": config["N"] & (config["N"] - 1) != 0}
