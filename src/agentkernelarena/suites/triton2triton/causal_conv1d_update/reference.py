"""Reference and inputs for one decode step of the Mamba causal conv1d with a rolling state."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, D, W = config["B"], config["D"], config["W"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(B, D, generator=gen, device=device).to(dtype)
    conv_state = torch.randn(B, D, W - 1, generator=gen, device=device).to(dtype)
    weight = torch.randn(D, W, generator=gen, device=device).mul_(W**-0.5).to(dtype)
    bias = torch.randn(D, generator=gen, device=device).mul_(0.5).to(dtype)
    return (x, conv_state, weight, bias)


def reference(x, conv_state, weight, bias):
    u = torch.cat([conv_state, x[..., None]], dim=-1)  # (B, D, W), oldest first
    out = torch.nn.functional.silu((u * weight[None]).sum(-1) + bias[None])
    return (out, u[..., 1:].clone())
