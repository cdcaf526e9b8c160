"""instruction2triton/diag_extract_add: the reference and the inputs."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    N = config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(N, N, generator=gen, device=device).to(dtype)
    d = (torch.randn(N, generator=gen, device=device) + 2.0).to(dtype)
    return (x, d)


def reference(x: torch.Tensor, d: torch.Tensor) -> torch.Tensor:
    return x + torch.diag(d)


def exercised(config: dict, x, d) -> dict:
    return {"d nonzero": bool((d != 0).all())}
