"""Reference and inputs for the matrix-vector product task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, K = config["M"], config["K"]
    gen = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn(M, K, generator=gen, device=device)
    # Scaled by K^-1/2 so that y stays of order one whatever K is.
    x = torch.randn(K, generator=gen, device=device).mul_(K**-0.5)
    return (a.to(dtype), x.to(dtype))


def reference(a: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    return a @ x


def exercised(config: dict, *inputs) -> dict:
    """The description's rule, seen in this configuration (`aka tasks check`)."""
    return {"K not a multiple of 8": config["K"] % 8 != 0}
