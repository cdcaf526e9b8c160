"""Reference and inputs for the causal depthwise conv1d + bias + SiLU task (Mamba's conv)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    Bt, C, L, W = config["Bt"], config["C"], config["L"], config["W"]
    x = torch.randn(Bt, C, L, generator=gen, device=device)
    weight = torch.randn(C, W, generator=gen, device=device).div_(W**0.5)
    bias = torch.randn(C, generator=gen, device=device).mul_(0.1)
    return (x.to(dtype), weight.to(dtype), bias.to(dtype))


def reference(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    C, W = weight.shape
    y = torch.nn.functional.conv1d(
        x.to(acc), weight.to(acc).unsqueeze(1), bias.to(acc), padding=W - 1, groups=C
    )
    return torch.nn.functional.silu(y[..., : x.shape[-1]]).to(x.dtype)


def exercised(config: dict, *inputs) -> dict:
    """The description's rule, seen in this configuration (`aka tasks check`)."""
    return {"sequence length not a multiple of 8": config["L"] % 8 != 0}
