"""Reference and inputs for im2col (torch.nn.functional.unfold) of an NCHW tensor."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    N, C, H, W = (config[k] for k in ("N", "C", "H", "W"))
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(N, C, H, W, generator=gen, device=device).to(dtype)
    return (x, config["K"], config["S"], config["P"])


def reference(x: torch.Tensor, k: int, stride: int, padding: int) -> torch.Tensor:
    return torch.nn.functional.unfold(x, k, padding=padding, stride=stride)
