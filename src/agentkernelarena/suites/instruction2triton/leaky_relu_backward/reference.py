"""instruction2triton/leaky_relu_backward: the reference and the inputs."""

import torch

SLOPE = 0.2


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    dy = torch.randn(M, N, generator=gen, device=device).to(dtype)
    x = torch.randn(M, N, generator=gen, device=device)
    # About 5% exact zeros in x (where the strict x > 0 test matters); dy stays nonzero there.
    x = x.masked_fill(torch.rand(M, N, generator=gen, device=device) < 0.05, 0.0).to(dtype)
    return (dy, x, SLOPE)


def reference(dy: torch.Tensor, x: torch.Tensor, slope: float) -> torch.Tensor:
    return torch.where(x > 0, dy, dy * slope)


def exercised(config: dict, dy, x, slope) -> dict:
    return {"x exactly zero where dy is nonzero": bool(((x == 0) & (dy != 0)).any()),
            "x negative": bool((x < 0).any()), "x positive": bool((x > 0).any())}
