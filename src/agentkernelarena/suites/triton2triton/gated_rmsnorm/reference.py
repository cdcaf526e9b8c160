"""Reference and inputs for Mamba2's gated RMSNorm (gate before the norm)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(M, N, generator=gen, device=device).to(dtype)
    z = torch.randn(M, N, generator=gen, device=device).mul_(1.5).to(dtype)
    # Rows of very different scale: some rows are tiny, so eps matters there.
    scale = torch.exp(torch.randn(M, 1, generator=gen, device=device) * 2.0)
    scale[::7] = 2e-3
    x = (x.float() * scale).to(dtype)
    weight = (1.0 + 0.5 * torch.randn(N, generator=gen, device=device)).to(dtype)
    return (x, z, weight)


def reference(x: torch.Tensor, z: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    g = x * torch.nn.functional.silu(z)
    rstd = torch.rsqrt(g.pow(2).mean(-1, keepdim=True) + 1e-5)
    return g * rstd * weight
