"""instruction2triton/hard_swish: the reference and the inputs."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(config["M"], config["N"], generator=gen, device=device).mul_(3.0)
    return (x.to(dtype),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return x * torch.clamp(x + 3.0, 0.0, 6.0) / 6.0


def exercised(config: dict, x) -> dict:
    return {"x <= -3 (output 0)": bool((x <= -3).any()), "x >= 3 (output x)": bool((x >= 3).any()),
            "-3 < x < 3": bool(((x > -3) & (x < 3)).any())}
