"""Reference and inputs for causal linear attention (no decay, no normalization)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, H, T, DK, DV = (config[k] for k in ("B", "H", "T", "DK", "DV"))
    gen = torch.Generator(device=device).manual_seed(seed)
    q = torch.randn(B, H, T, DK, generator=gen, device=device).to(dtype)
    k = torch.randn(B, H, T, DK, generator=gen, device=device).to(dtype)
    v = torch.randn(B, H, T, DV, generator=gen, device=device).to(dtype)
    return (q, k, v)


def reference(q, k, v):
    T = q.shape[2]
    scores = q @ k.transpose(-2, -1)
    mask = torch.ones(T, T, dtype=torch.bool, device=q.device).tril()
    scores = scores.masked_fill(~mask, 0.0)
    return (scores @ v) * q.shape[-1] ** -0.5
