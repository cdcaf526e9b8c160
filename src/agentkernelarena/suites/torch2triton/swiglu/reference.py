"""Reference and inputs for SwiGLU on a fused gate_up projection output (M x 2I)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, Inter = config["M"], config["I"]
    gen = torch.Generator(device=device).manual_seed(seed)
    gate_up = torch.randn(M, 2 * Inter, generator=gen, device=device).mul_(2.0)
    return (gate_up.to(dtype),)


def reference(gate_up: torch.Tensor) -> torch.Tensor:
    n = gate_up.shape[-1] // 2
    gate, up = gate_up[..., :n], gate_up[..., n:]
    return gate * torch.sigmoid(gate) * up
