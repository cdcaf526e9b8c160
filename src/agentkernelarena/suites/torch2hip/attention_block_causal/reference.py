"""Reference and inputs for causal attention softmax(q k^T / sqrt(D) + causal mask) v."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    shape = (config["B"], config["H"], config["S"], config["D"])
    gen = torch.Generator(device=device).manual_seed(seed)
    q, k, v = (torch.randn(shape, generator=gen, device=device) for _ in range(3))
    return (q.to(dtype), k.to(dtype), v.to(dtype))


def reference(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if q.dtype == torch.float64 else torch.float32
    S, D = q.shape[-2], q.shape[-1]
    scores = (q.to(acc) @ k.to(acc).transpose(-2, -1)) * D**-0.5
    mask = torch.ones(S, S, dtype=torch.bool, device=q.device).triu(1)
    p = torch.softmax(scores.masked_fill(mask, float("-inf")), dim=-1)
    return (p @ v.to(acc)).to(q.dtype)
