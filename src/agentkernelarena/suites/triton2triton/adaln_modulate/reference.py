"""Reference and inputs for the DiT adaptive LayerNorm modulation."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, L, D = config["B"], config["L"], config["D"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Rows with a nonzero mean and a spread other than 1, so both statistics matter.
    x = torch.randn(B, L, D, generator=gen, device=device).mul_(1.7).add_(0.4).to(dtype)
    shift = torch.randn(B, D, generator=gen, device=device).to(dtype)
    scale = torch.randn(B, D, generator=gen, device=device).mul_(0.5).to(dtype)
    return (x, shift, scale)


def reference(x: torch.Tensor, shift: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    xn = torch.nn.functional.layer_norm(x, (x.shape[-1],), eps=1.0e-6)
    return xn * (1.0 + scale[:, None, :]) + shift[:, None, :]
