"""Reference and inputs for the int8 weight-only (W8A16) linear layer."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N, K = config["M"], config["N"], config["K"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(M, K, generator=gen, device=device).to(dtype)
    # Per-output-channel symmetric int8 weights (nn.Linear layout, N x K) with float32 scales
    # chosen so that x @ W^T has unit scale.
    w_q = torch.randint(-127, 128, (N, K), generator=gen, device=device, dtype=torch.int8)
    scale = (torch.rand(N, generator=gen, device=device) + 0.5).mul_(K**-0.5 / 73.0)
    return (x, w_q, scale)


def reference(x: torch.Tensor, w_q: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    acc = x.to(scale.dtype) @ w_q.to(scale.dtype).T
    return (acc * scale[None, :]).to(x.dtype)
