"""instruction2triton/clip_grad_norm_scale: the reference and the inputs."""

import math

import torch

EPS = 1e-6
STD = 0.02


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    N = config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    g = torch.randn(N, generator=gen, device=device).mul_(STD)
    # max_norm relative to the expected norm: ratio < 1 clips, ratio > 1 leaves g unchanged.
    max_norm = float(config["ratio"]) * STD * math.sqrt(N)
    return (g, max_norm)


def reference(g: torch.Tensor, max_norm: float) -> torch.Tensor:
    norm = torch.sqrt((g * g).sum())
    coef = torch.clamp(max_norm / (norm + EPS), max=1.0)
    return g * coef


def exercised(config: dict, g, max_norm) -> dict:
    norm = float(torch.linalg.vector_norm(g.double()))
    return {"norm above max_norm (clipped)": norm > max_norm,
            "norm below max_norm (unchanged)": norm < max_norm}
