"""Reference and inputs for the batched float16 matrix product task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    gen = torch.Generator(device=device).manual_seed(seed)
    B, M, N, K = config["B"], config["M"], config["N"], config["K"]
    a = torch.randn(B, M, K, generator=gen, device=device)
    # Each batch at its own scale (a kernel that mixes batches up is far off), and scaled by
    # K^-1/2 so that C stays of order one whatever K is.
    scale = torch.rand(B, 1, 1, generator=gen, device=device).add_(0.5).mul_(K**-0.5)
    b = torch.randn(B, K, N, generator=gen, device=device).mul_(scale)
    return (a.to(torch.float16), b.to(torch.float16))


def reference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return torch.bmm(a, b)
