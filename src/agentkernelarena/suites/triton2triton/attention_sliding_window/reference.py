"""Reference and inputs for causal sliding-window attention (Mistral-style local attention)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, H, S, D = config["B"], config["H"], config["S"], config["D"]
    gen = torch.Generator(device=device).manual_seed(seed)
    q = torch.randn(B, H, S, D, generator=gen, device=device).mul_(1.4).to(dtype)
    k = torch.randn(B, H, S, D, generator=gen, device=device).mul_(1.4).to(dtype)
    v = torch.randn(B, H, S, D, generator=gen, device=device).to(dtype)
    return (q, k, v, config["WINDOW"])


def reference(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, window: int) -> torch.Tensor:
    S = q.shape[2]
    i = torch.arange(S, device=q.device)
    allowed = (i[None, :] <= i[:, None]) & (i[None, :] > i[:, None] - window)
    scores = (q @ k.transpose(-2, -1)) * q.shape[-1] ** -0.5
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
