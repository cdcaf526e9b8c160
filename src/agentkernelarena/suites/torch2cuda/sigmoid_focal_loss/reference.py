"""Reference and inputs for the sigmoid focal loss task (RetinaNet; reduction "none")."""

import torch

ALPHA = 0.25
GAMMA = 2.0


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    M, N = config["M"], config["N"]
    # Class logits of a detector (a spread that includes confident right and wrong answers)
    # and 0/1 targets, a quarter of them positive.
    logits = torch.randn(M, N, generator=gen, device=device).mul_(2.5)
    targets = torch.rand(M, N, generator=gen, device=device).lt_(0.25)
    return (logits.to(dtype), targets.to(dtype))


def reference(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if logits.dtype == torch.float64 else torch.float32
    x, t = logits.to(acc), targets.to(acc)
    p = torch.sigmoid(x)
    ce = x.clamp_min(0) - x * t + torch.log1p(torch.exp(-x.abs()))
    p_t = p * t + (1 - p) * (1 - t)
    alpha_t = ALPHA * t + (1 - ALPHA) * (1 - t)
    return (alpha_t * ce * (1 - p_t) ** GAMMA).to(logits.dtype)
