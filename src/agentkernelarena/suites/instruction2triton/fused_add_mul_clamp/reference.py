"""instruction2triton/fused_add_mul_clamp: the reference and the inputs."""

import torch

LO, HI = -2.0, 2.5


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn(M, N, generator=gen, device=device).mul_(1.2).to(dtype)
    b = torch.randn(M, N, generator=gen, device=device).mul_(1.2).to(dtype)
    c = torch.randn(N, generator=gen, device=device).to(dtype)
    return (a, b, c, LO, HI)


def reference(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, lo: float,
              hi: float) -> torch.Tensor:
    return torch.clamp(a * b + c, lo, hi)


def exercised(config: dict, a, b, c, lo, hi) -> dict:
    v = a.float() * b.float() + c.float()
    return {"some values clamped to lo": bool((v < lo).any()),
            "some values clamped to hi": bool((v > hi).any()),
            "some values inside [lo, hi]": bool(((v > lo) & (v < hi)).any())}
