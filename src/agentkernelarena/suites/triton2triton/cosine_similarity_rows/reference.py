"""Reference and inputs for the row-wise cosine similarity task (per-norm eps clamp)."""

import torch

EPS = 1e-8


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn(M, N, generator=gen, device=device)
    rho = torch.rand(M, 1, generator=gen, device=device).mul_(2.0).sub_(1.0)
    b = rho * a + (1 - rho * rho).sqrt() * torch.randn(M, N, generator=gen, device=device)
    scale_a = torch.rand(M, 1, generator=gen, device=device).mul_(4.0).add_(0.1)
    scale_b = torch.rand(M, 1, generator=gen, device=device).mul_(4.0).add_(0.1)
    rows = torch.arange(M, device=device)[:, None]
    # Every 10th row (from row 3): both norms about 1e-6..1e-5, whose product is below eps but
    # each norm is above it. Every 10th row (from row 7): ||a|| about 1e-9, clamped to eps.
    # Every 25th row (from row 11): a is all zeros.
    tiny = torch.rand(M, 1, generator=gen, device=device).mul_(9e-6).add_(1e-6)
    below = torch.rand(M, 1, generator=gen, device=device).mul_(4e-9).add_(1e-9)
    a_norm = a.norm(dim=1, keepdim=True)
    b_norm = b.norm(dim=1, keepdim=True)
    scale_a = torch.where(rows % 10 == 3, tiny / a_norm, scale_a)
    scale_b = torch.where(rows % 10 == 3, tiny * 0.7 / b_norm, scale_b)
    scale_a = torch.where(rows % 10 == 7, below / a_norm, scale_a)
    scale_a = torch.where(rows % 25 == 11, torch.zeros_like(scale_a), scale_a)
    return ((a * scale_a).to(dtype), (b * scale_b).to(dtype))


def reference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.cosine_similarity(a, b, dim=1, eps=EPS)


def exercised(config: dict, a: torch.Tensor, b: torch.Tensor) -> dict:
    na, nb = a.double().norm(dim=1), b.double().norm(dim=1)
    return {
        "both norms above eps, product below eps": bool(((na > EPS) & (nb > EPS)
                                                         & (na * nb < EPS)).any()),
        "a norm below eps (clamped), b norm normal": bool(((na > 0) & (na < EPS)
                                                           & (nb > 1e-3)).any()),
        "a zero row": bool((na == 0).any()),
    }
