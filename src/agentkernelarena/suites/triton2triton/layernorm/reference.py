"""Reference and inputs for the LayerNorm task."""

import torch

EPS = 1e-5


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Rows with a non-zero offset and varied scale, as activations have.
    scale = torch.rand(M, 1, generator=gen, device=device).mul_(2.0).add_(0.5)
    shift = torch.randn(M, 1, generator=gen, device=device)
    x = (torch.randn(M, N, generator=gen, device=device) * scale + shift).to(dtype)
    weight = torch.randn(N, generator=gen, device=device).mul_(0.5).add_(1.0).to(dtype)
    bias = torch.randn(N, generator=gen, device=device).mul_(0.5).to(dtype)
    return (x, weight, bias)


def reference(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.layer_norm(x, (x.shape[-1],), weight, bias, eps=EPS)
