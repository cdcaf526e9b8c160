"""instruction2triton/elu_alpha: the reference and the inputs."""

import torch

ALPHA = 1.7


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(config["M"], config["N"], generator=gen, device=device).mul_(2.5)
    return (x.to(dtype), ALPHA)


def reference(x: torch.Tensor, alpha: float) -> torch.Tensor:
    return torch.where(x > 0, x, alpha * torch.expm1(x))


def exercised(config: dict, x, alpha) -> dict:
    return {"x > 0 (output x)": bool((x > 0).any()),
            "x < 0 (output alpha * (exp(x) - 1))": bool((x < 0).any()),
            "x < -4 (output near -alpha)": bool((x < -4).any())}
