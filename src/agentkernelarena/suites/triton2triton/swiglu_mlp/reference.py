"""Reference and inputs for the fused SwiGLU MLP gate/up projection task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N, K = config["M"], config["N"], config["K"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(M, K, generator=gen, device=device).to(dtype)
    # Weights in nn.Linear layout (out_features x in_features), scaled so x @ W^T has unit scale.
    w_gate = torch.randn(N, K, generator=gen, device=device).mul_(K**-0.5).to(dtype)
    w_up = torch.randn(N, K, generator=gen, device=device).mul_(K**-0.5).to(dtype)
    return (x, w_gate, w_up)


def reference(x: torch.Tensor, w_gate: torch.Tensor, w_up: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.silu(x @ w_gate.T) * (x @ w_up.T)
