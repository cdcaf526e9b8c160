"""Reference and inputs for the pixel-shuffle task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, C, H, W, r = config["B"], config["C"], config["H"], config["W"], config["r"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(B, C * r * r, H, W, generator=gen, device=device).to(dtype)
    return (x, r)


def reference(x: torch.Tensor, r: int) -> torch.Tensor:
    return torch.nn.functional.pixel_shuffle(x, r)
