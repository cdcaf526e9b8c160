"""Reference and inputs for the residual add + LayerNorm returning the sum and the norm."""

import torch

EPS = 1e-5


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Rows of varied scale and offset, as a transformer's hidden states have.
    scale = torch.rand(M, 1, generator=gen, device=device).mul_(1.5).add_(0.25)
    shift = torch.randn(M, 1, generator=gen, device=device).mul_(0.5)
    x = torch.randn(M, N, generator=gen, device=device).mul_(scale).add_(shift)
    residual = torch.randn(M, N, generator=gen, device=device)
    w = torch.randn(N, generator=gen, device=device).mul_(0.5).add_(1.0)
    b = torch.randn(N, generator=gen, device=device).mul_(0.2)
    return (x.to(dtype), residual.to(dtype), w.to(dtype), b.to(dtype))


def reference(x: torch.Tensor, residual: torch.Tensor, w: torch.Tensor,
              b: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    h = (x.to(acc) + residual.to(acc)).to(x.dtype)
    y = torch.nn.functional.layer_norm(h.to(acc), (h.shape[-1],), w.to(acc), b.to(acc), EPS)
    return h, y.to(x.dtype)
