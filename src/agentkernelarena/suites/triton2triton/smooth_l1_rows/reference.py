"""Reference and inputs for the per-row smooth L1 (Huber-style) loss task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N, beta = config["M"], config["N"], float(config["beta"])
    gen = torch.Generator(device=device).manual_seed(seed)
    target = torch.randn(M, N, generator=gen, device=device)
    # Residuals of about beta in size per row (scaled 0.3x to 3x): both branches, |d| < beta and
    # |d| >= beta, occur in every row.
    scale = torch.rand(M, 1, generator=gen, device=device).mul_(2.7).add_(0.3) * beta
    pred = target + torch.randn(M, N, generator=gen, device=device) * scale
    return (pred.to(dtype), target.to(dtype), beta)


def reference(pred: torch.Tensor, target: torch.Tensor, beta: float) -> torch.Tensor:
    loss = torch.nn.functional.smooth_l1_loss(pred, target, beta=beta, reduction="none")
    acc = torch.float64 if loss.dtype == torch.float64 else torch.float32
    return loss.to(acc).sum(dim=1).to(torch.float32)
