"""Reference and inputs for rotary position embedding (rotate_half form).

x is T x H x D (tokens, heads, head_dim); cos and sin are T x D tables for each token's
position, both halves equal, as Hugging Face's rotary embedding builds them.
"""

import torch

BASE = 10000.0


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    T, H, D = config["T"], config["H"], config["D"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(T, H, D, generator=gen, device=device)
    # Positions of a batch of sequences of random lengths, flattened (a varlen batch).
    start = torch.randint(0, 4096, (1,), generator=gen, device=device)
    pos = (torch.arange(T, device=device) + start).float()
    inv_freq = 1.0 / BASE ** (torch.arange(0, D, 2, device=device).float() / D)
    freqs = pos[:, None] * inv_freq[None, :]
    emb = torch.cat((freqs, freqs), dim=-1)
    return (x.to(dtype), emb.cos().to(dtype), emb.sin().to(dtype))


def reference(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    xf, c, s = x.to(acc), cos.to(acc).unsqueeze(1), sin.to(acc).unsqueeze(1)
    half = x.shape[-1] // 2
    rotated = torch.cat((-xf[..., half:], xf[..., :half]), dim=-1)
    return (xf * c + rotated * s).to(x.dtype)
