"""Reference and inputs for a depthwise causal 1-D convolution followed by SiLU (Mamba's conv).

out[b, c, t] = silu(bias[c] + sum_{i < K} weight[c, i] * x[b, c, t - (K - 1) + i]), with x
taken as 0 before t = 0; x is B x C x L (channels first), weight C x K, bias C, all of one
dtype; computed in float32 (float64 for float64 inputs) and returned in x's dtype.
"""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, C, L, K = config["B"], config["C"], config["L"], config["K"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(B, C, L, generator=gen, device=device).to(dtype)
    weight = torch.randn(C, K, generator=gen, device=device).mul_(0.5).to(dtype)
    bias = torch.randn(C, generator=gen, device=device).mul_(0.2).to(dtype)
    return (x, weight, bias)


def reference(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    K = weight.shape[1]
    L = x.shape[-1]
    xp = torch.nn.functional.pad(x.to(acc), (K - 1, 0))
    w = weight.to(acc)
    y = bias.to(acc)[None, :, None].expand(x.shape[0], -1, L).clone()
    for i in range(K):
        y += w[None, :, i, None] * xp[..., i:i + L]
    return torch.nn.functional.silu(y).to(x.dtype)
