"""Reference and inputs for the 2D reflection-padding task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, C, H, W = config["B"], config["C"], config["H"], config["W"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(B, C, H, W, generator=gen, device=device).to(dtype)
    return (x, config["pl"], config["pr"], config["pt"], config["pb"])


def reference(x: torch.Tensor, pl: int, pr: int, pt: int, pb: int) -> torch.Tensor:
    return torch.nn.functional.pad(x, (pl, pr, pt, pb), mode="reflect")
