"""instruction2triton/gated_residual: the reference and the inputs."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(M, N, generator=gen, device=device)
    # Gate logits from -6 to 6: gates from nearly closed to nearly open.
    g = torch.randn(M, N, generator=gen, device=device).mul_(2.5)
    y = torch.randn(M, N, generator=gen, device=device).mul_(1.5)
    return (x.to(dtype), g.to(dtype), y.to(dtype))


def reference(x: torch.Tensor, g: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return x + torch.sigmoid(g) * y


def exercised(config: dict, x, g, y) -> dict:
    return {"gate nearly closed (g < -4)": bool((g < -4).any()),
            "gate nearly open (g > 4)": bool((g > 4).any())}
