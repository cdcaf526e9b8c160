"""instruction2triton/interleave_two: the reference and the inputs."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn(M, N, generator=gen, device=device).to(dtype)
    b = torch.randn(M, N, generator=gen, device=device).to(dtype)
    return (a, b)


def reference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    M, N = a.shape
    out = torch.empty(M, 2 * N, dtype=a.dtype, device=a.device)
    out[:, 0::2] = a
    out[:, 1::2] = b
    return out
