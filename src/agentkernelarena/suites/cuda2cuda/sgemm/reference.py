"""Reference and inputs for the float32 matrix product (SGEMM) task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    gen = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn(config["M"], config["K"], generator=gen, device=device)
    b = torch.randn(config["K"], config["N"], generator=gen, device=device)
    return (a, b)


def reference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return a @ b
