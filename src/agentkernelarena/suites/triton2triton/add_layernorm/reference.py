"""Reference and inputs for the residual-add + LayerNorm task."""

import torch

EPS = 1e-5


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    scale = torch.rand(M, 1, generator=gen, device=device).mul_(2.0).add_(0.25)
    shift = torch.randn(M, 1, generator=gen, device=device)
    x = (torch.randn(M, N, generator=gen, device=device) * scale + shift).to(dtype)
    residual = (torch.randn(M, N, generator=gen, device=device) + 0.5).to(dtype)
    weight = torch.rand(N, generator=gen, device=device).add_(0.5).to(dtype)
    bias = torch.randn(N, generator=gen, device=device).mul_(0.5).to(dtype)
    return (x, residual, weight, bias)


def reference(x: torch.Tensor, residual: torch.Tensor, weight: torch.Tensor,
              bias: torch.Tensor) -> tuple:
    # The normalization reads the unrounded sum; h is returned in x's dtype.
    h = x + residual
    out = torch.nn.functional.layer_norm(h, (x.shape[-1],), weight, bias, eps=EPS)
    return (out, h)
