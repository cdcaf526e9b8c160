"""Reference and inputs for LayerNorm followed by exact (erf) GELU."""

import torch

EPS = 1e-5


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Rows with their own offset and scale, so that the mean and the variance both matter.
    shift = torch.randn(M, 1, generator=gen, device=device).mul_(2.0)
    scale = torch.rand(M, 1, generator=gen, device=device).mul_(3.0).add_(0.5)
    # About one row in eight (the first, when there are several) is nearly constant (variance
    # ~1e-5, like the epsilon), so that where the epsilon goes matters.
    tiny = torch.rand(M, 1, generator=gen, device=device) < 0.125
    if M > 1:
        tiny[0] = True
    scale = torch.where(tiny, 3e-3, scale)
    shift = torch.where(tiny, 0.0, shift)
    x = torch.randn(M, N, generator=gen, device=device).mul_(scale).add_(shift)
    weight = torch.randn(N, generator=gen, device=device).mul_(0.5).add_(1.0)
    bias = torch.randn(N, generator=gen, device=device).mul_(0.5)
    return (x.to(dtype), weight.to(dtype), bias.to(dtype))


def reference(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    y = torch.nn.functional.layer_norm(x.to(acc), (x.shape[-1],), weight.to(acc),
                                       bias.to(acc), eps=EPS)
    return torch.nn.functional.gelu(y).to(x.dtype)
