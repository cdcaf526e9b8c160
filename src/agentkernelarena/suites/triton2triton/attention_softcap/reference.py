"""Reference and inputs for causal attention with logit soft-capping (Gemma 2)."""

import torch

SOFTCAP = 20.0


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, H, S, D = config["B"], config["H"], config["S"], config["D"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Raw logits with a standard deviation of about 12, so the cap of 20 bends many of them
    # (and an uncapped softmax would be far peakier).
    q = torch.randn(B, H, S, D, generator=gen, device=device).mul_(3.5).to(dtype)
    k = torch.randn(B, H, S, D, generator=gen, device=device).mul_(3.5).to(dtype)
    v = torch.randn(B, H, S, D, generator=gen, device=device).to(dtype)
    return (q, k, v, SOFTCAP)


def reference(q, k, v, softcap):
    S = q.shape[2]
    s = (q @ k.transpose(-2, -1)) * q.shape[-1] ** -0.5
    s = softcap * torch.tanh(s / softcap)
    causal = torch.ones(S, S, dtype=torch.bool, device=q.device).tril()
    s = s.masked_fill(~causal, float("-inf"))
    return torch.softmax(s, dim=-1) @ v
