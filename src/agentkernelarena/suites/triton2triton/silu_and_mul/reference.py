"""Reference and inputs for the SiLU-and-mul (SwiGLU activation) task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(config["M"], 2 * config["N"], generator=gen, device=device).mul_(2.0)
    return (x.to(dtype),)


def reference(x: torch.Tensor) -> torch.Tensor:
    n = x.shape[-1] // 2
    return torch.nn.functional.silu(x[:, :n]) * x[:, n:]
