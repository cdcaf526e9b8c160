"""Reference and inputs for the (B, S, H, D) -> (B, H, S, D) head-split permute task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, S, H, D = config["B"], config["S"], config["H"], config["D"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(B, S, H, D, generator=gen, device=device).to(dtype)
    return (x,)


def reference(x: torch.Tensor) -> torch.Tensor:
    return x.permute(0, 2, 1, 3).contiguous()
