"""Reference and inputs for causal attention with ALiBi biases."""

import torch


def alibi_slopes(H: int, device: str) -> torch.Tensor:
    """The geometric ALiBi slopes 2^(-8 (h + 1) / H)."""
    h = torch.arange(1, H + 1, device=device, dtype=torch.float64)
    return torch.pow(2.0, -8.0 * h / H).to(torch.float32)


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, H, S, D = config["B"], config["H"], config["S"], config["D"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Logits with a standard deviation of about 2: weights neither uniform nor one-hot.
    q = torch.randn(B, H, S, D, generator=gen, device=device).mul_(1.4).to(dtype)
    k = torch.randn(B, H, S, D, generator=gen, device=device).mul_(1.4).to(dtype)
    v = torch.randn(B, H, S, D, generator=gen, device=device).to(dtype)
    return (q, k, v, alibi_slopes(H, device))


def alibi_attention(q, k, v, slopes):
    S = q.shape[2]
    pos = torch.arange(S, device=q.device)
    dist = (pos[:, None] - pos[None, :]).to(q.dtype)  # i - j
    scores = (q @ k.transpose(-2, -1)) * q.shape[-1] ** -0.5
    scores = scores - slopes.to(q.dtype)[None, :, None, None] * dist
    causal = torch.ones(S, S, dtype=torch.bool, device=q.device).tril()
    scores = scores.masked_fill(~causal, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v


def reference(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
              slopes: torch.Tensor) -> torch.Tensor:
    return alibi_attention(q, k, v, slopes)
