"""instruction2triton/bias_softplus: the reference and the inputs."""

import torch

BETA = 1.5
THRESHOLD = 3.0
# No element has beta * (x + bias) within this distance of the threshold: a float32 z (or one
# rounded to the input dtype) must not move an element across it.
MARGIN = 0.05


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(M, N, generator=gen, device=device).mul_(2.0).to(dtype)
    bias = torch.randn(N, generator=gen, device=device).mul_(1.0).to(dtype)
    beta_z = (x.float() + bias.float()) * BETA
    near = (beta_z - THRESHOLD).abs() < MARGIN
    x = torch.where(near, (x.float() - 0.2).to(dtype), x)
    return (x, bias, BETA, THRESHOLD)


def reference(x: torch.Tensor, bias: torch.Tensor, beta: float, threshold: float) -> torch.Tensor:
    z = x + bias
    return torch.where(z * beta > threshold, z, torch.log1p(torch.exp(beta * z)) / beta)


def exercised(config: dict, x, bias, beta, threshold) -> dict:
    bz = (x.double() + bias.double()) * beta
    return {"beta * z above the threshold (output z)": bool((bz > threshold).any()),
            "beta * z just below the threshold (1 < beta * z < threshold)":
                bool(((bz > 1) & (bz < threshold)).any()),
            "beta * z very negative (output near 0)": bool((bz < -6).any()),
            "no element within the margin of the threshold":
                bool(((bz - threshold).abs() >= 0.04).all())}
