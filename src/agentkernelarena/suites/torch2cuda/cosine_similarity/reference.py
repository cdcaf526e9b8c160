"""Reference and inputs for the cosine-similarity task: out[m] = cos(a[m, :], b[m, :])."""

import torch

EPS = 1e-8


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    M, N = config["M"], config["N"]
    # b[m] = c[m] a[m] + sqrt(1 - c[m]^2) noise, so that the similarities spread over [-1, 1]
    # instead of clustering near 0; the rows get their own scales (the result ignores them).
    a = torch.randn(M, N, generator=gen, device=device)
    noise = torch.randn(M, N, generator=gen, device=device)
    c = torch.rand(M, 1, generator=gen, device=device).mul_(2.0).sub_(1.0)
    b = a * c + noise * (1.0 - c * c).sqrt()
    a = a * torch.rand(M, 1, generator=gen, device=device).add_(0.5)
    b = b * torch.rand(M, 1, generator=gen, device=device).mul_(3.0).add_(0.1)
    return (a.to(dtype), b.to(dtype))


def reference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if a.dtype == torch.float64 else torch.float32
    af, bf = a.to(acc), b.to(acc)
    na = af.pow(2).sum(-1).sqrt().clamp_min(EPS)
    nb = bf.pow(2).sum(-1).sqrt().clamp_min(EPS)
    return ((af * bf).sum(-1) / (na * nb)).to(a.dtype)
