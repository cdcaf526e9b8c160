"""Reference and inputs for the layer-normalization task."""

import torch

EPS = 1e-5


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # A non-zero mean, so that a kernel which skips the centering is visibly wrong.
    x = torch.randn(M, N, generator=gen, device=device).mul_(2.0).add_(0.5)
    w = torch.randn(N, generator=gen, device=device).mul_(0.5).add_(1.0)
    b = torch.randn(N, generator=gen, device=device).mul_(0.2)
    return (x.to(dtype), w.to(dtype), b.to(dtype))


def reference(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.layer_norm(x, (x.shape[-1],), w, b, EPS)
