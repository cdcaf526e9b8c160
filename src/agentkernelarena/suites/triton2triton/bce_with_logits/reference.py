"""Reference and inputs for the binary cross-entropy with logits task (pos_weight per column)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(M, N, generator=gen, device=device).mul_(3.0)
    # About 3% of the logits are very confident (|x| in [30, 100]): there sigmoid(x) rounds to 1
    # (or 1 - sigmoid(x) to 0) and only the stable form gives a finite loss.
    big = torch.rand(M, N, generator=gen, device=device) < 0.03
    mag = torch.rand(M, N, generator=gen, device=device).mul_(70.0).add_(30.0)
    x = torch.where(big, torch.sign(x) * mag, x)
    # Hard 0/1 labels, a quarter of them replaced by soft labels in [0.05, 0.95].
    hard = (torch.rand(M, N, generator=gen, device=device) < 0.4).float()
    soft = torch.rand(M, N, generator=gen, device=device).mul_(0.9).add_(0.05)
    y = torch.where(torch.rand(M, N, generator=gen, device=device) < 0.25, soft, hard)
    pos_weight = torch.rand(N, generator=gen, device=device).mul_(2.5).add_(0.5)
    return (x.to(dtype), y.to(dtype), pos_weight.to(dtype))


def reference(x: torch.Tensor, y: torch.Tensor, pos_weight: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.binary_cross_entropy_with_logits(
        x, y, pos_weight=pos_weight, reduction="none")


def exercised(config: dict, x: torch.Tensor, y: torch.Tensor, pos_weight: torch.Tensor) -> dict:
    xf, yf = x.float(), y.float()
    return {
        "logits with |x| >= 30": bool((xf.abs() >= 30).any()),
        "positive logits beyond 30 with a target below 1": bool(((xf >= 30) & (yf < 1)).any()),
        "soft labels": bool(((yf > 0) & (yf < 1)).any()),
        "pos_weight not all 1": bool((pos_weight.float() != 1).any()),
    }
