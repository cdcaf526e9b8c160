"""instruction2triton/row_l1_normalize: the reference and the inputs."""

import torch

EPS = 1e-12


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(M, N, generator=gen, device=device)
    # Every 16th row (from row 5 on) is all zeros: the eps guard decides its output.
    x[5::16] = 0.0
    return (x.to(dtype),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return x / x.abs().sum(dim=-1, keepdim=True).clamp_min(EPS)


def exercised(config: dict, x) -> dict:
    return {"a row of zeros (eps guard)": bool((x.abs().sum(-1) == 0).any())}
