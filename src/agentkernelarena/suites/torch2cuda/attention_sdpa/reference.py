"""Reference and inputs for non-causal scaled dot-product attention.

o[b, h] = softmax(q[b, h] @ k[b, h].T / sqrt(D)) @ v[b, h] for B x H x S x D tensors q, k, v of
one 16-bit dtype, in float32 (float64 for float64 inputs), returned in q's dtype. The queries
are scaled up (scores of standard deviation about 2.5) so that each query attends to a few
dozen keys and the outputs are of order 0.3, not averages of thousands of values near 0.
"""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, H, S, D = config["B"], config["H"], config["S"], config["D"]
    gen = torch.Generator(device=device).manual_seed(seed)
    q = torch.randn(B, H, S, D, generator=gen, device=device).mul_(2.5).to(dtype)
    k = torch.randn(B, H, S, D, generator=gen, device=device).to(dtype)
    v = torch.randn(B, H, S, D, generator=gen, device=device).to(dtype)
    return (q, k, v)


def reference(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if q.dtype == torch.float64 else torch.float32
    scores = (q.to(acc) @ k.to(acc).transpose(-1, -2)) * q.shape[-1] ** -0.5
    return (torch.softmax(scores, dim=-1) @ v.to(acc)).to(q.dtype)
