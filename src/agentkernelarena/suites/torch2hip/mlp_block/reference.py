"""Reference and inputs for y = relu(x @ w1^T + b1) @ w2^T + b2."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, K, H, N = config["M"], config["K"], config["H"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(M, K, generator=gen, device=device)
    # Kaiming-like scales: the pre-activation and the output are about N(0, 1).
    w1 = torch.randn(H, K, generator=gen, device=device).mul_(K**-0.5)
    b1 = torch.randn(H, generator=gen, device=device).mul_(0.1)
    w2 = torch.randn(N, H, generator=gen, device=device).mul_((2.0 / H) ** 0.5)
    b2 = torch.randn(N, generator=gen, device=device).mul_(0.1)
    return tuple(t.to(dtype) for t in (x, w1, b1, w2, b2))


def reference(x: torch.Tensor, w1: torch.Tensor, b1: torch.Tensor, w2: torch.Tensor,
              b2: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    hidden = torch.relu(x.to(acc) @ w1.to(acc).T + b1.to(acc))
    return (hidden @ w2.to(acc).T + b2.to(acc)).to(x.dtype)
