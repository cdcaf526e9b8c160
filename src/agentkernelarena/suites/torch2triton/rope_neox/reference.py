"""Reference and inputs for the half-split (GPT-NeoX) rotary embedding of q and k.

q is B x S x H x D, k is B x S x HKV x D (grouped-query attention), cos and sin B x S x D
tables for each token's position (both halves of a row equal, as the rotary embedding module
builds them); each sequence of the batch starts at its own position (a decode/prefill batch).
"""

import torch

BASE = 10000.0


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, S, H, HKV, D = config["B"], config["S"], config["H"], config["HKV"], config["D"]
    gen = torch.Generator(device=device).manual_seed(seed)
    q = torch.randn(B, S, H, D, generator=gen, device=device)
    k = torch.randn(B, S, HKV, D, generator=gen, device=device)
    start = torch.randint(0, 4096, (B, 1), generator=gen, device=device)
    pos = (torch.arange(S, device=device)[None, :] + start).float()
    inv_freq = 1.0 / BASE ** (torch.arange(0, D, 2, device=device).float() / D)
    freqs = pos[..., None] * inv_freq
    emb = torch.cat((freqs, freqs), dim=-1)
    return (q.to(dtype), k.to(dtype), emb.cos().to(dtype), emb.sin().to(dtype))


def _rotate(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    half = x.shape[-1] // 2
    rotated = torch.cat((-x[..., half:], x[..., :half]), dim=-1)
    return x * cos + rotated * sin


def reference(q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> tuple:
    acc = torch.float64 if q.dtype == torch.float64 else torch.float32
    c, s = cos.to(acc).unsqueeze(2), sin.to(acc).unsqueeze(2)
    return (_rotate(q.to(acc), c, s).to(q.dtype), _rotate(k.to(acc), c, s).to(k.dtype))
