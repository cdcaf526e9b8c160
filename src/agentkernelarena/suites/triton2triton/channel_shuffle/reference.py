"""Reference and inputs for the channel-shuffle task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, groups, CPG, H, W = (config["B"], config["groups"], config["CPG"], config["H"],
                            config["W"])
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(B, groups * CPG, H, W, generator=gen, device=device).to(dtype)
    return (x, groups)


def reference(x: torch.Tensor, groups: int) -> torch.Tensor:
    B, C, H, W = x.shape
    return x.view(B, groups, C // groups, H, W).transpose(1, 2).reshape(B, C, H, W)
