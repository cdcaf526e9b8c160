"""Reference and inputs for softmax(a @ b^T, dim=-1) over batched small matrices."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, M, N, K = config["B"], config["M"], config["N"], config["K"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Scores of standard deviation about 0.7: softmax rows that are neither flat nor one-hot.
    s = (0.5 / K) ** 0.25
    a = torch.randn(B, M, K, generator=gen, device=device).mul_(s)
    b = torch.randn(B, N, K, generator=gen, device=device).mul_(s)
    return (a.to(dtype), b.to(dtype))


def reference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if a.dtype == torch.float64 else torch.float32
    scores = torch.bmm(a.to(acc), b.to(acc).transpose(1, 2))
    return torch.softmax(scores, dim=-1).to(a.dtype)
