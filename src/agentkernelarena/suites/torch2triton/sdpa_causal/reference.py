"""Reference and inputs for causal scaled dot-product attention (B, H, S, D)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, H, S, D = config["B"], config["H"], config["S"], config["D"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Logits with a standard deviation of about 2: weights neither uniform nor one-hot.
    q = torch.randn(B, H, S, D, generator=gen, device=device).mul_(1.4).to(dtype)
    k = torch.randn(B, H, S, D, generator=gen, device=device).mul_(1.4).to(dtype)
    v = torch.randn(B, H, S, D, generator=gen, device=device).to(dtype)
    return (q, k, v)


def reference(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    S = q.shape[2]
    scores = (q @ k.transpose(-2, -1)) * q.shape[-1] ** -0.5
    causal = torch.ones(S, S, dtype=torch.bool, device=q.device).tril()
    scores = scores.masked_fill(~causal, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
