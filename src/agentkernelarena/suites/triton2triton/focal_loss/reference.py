"""Reference and inputs for the sigmoid focal loss task (RetinaNet, alpha 0.25, gamma 2)."""

import torch

ALPHA = 0.25
GAMMA = 2.0


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Anchor x class logits, mostly negative (background), with a few positives among targets.
    x = torch.randn(M, N, generator=gen, device=device).mul_(2.5).sub_(1.0)
    targets = (torch.rand(M, N, generator=gen, device=device) < 0.2).to(dtype)
    return (x.to(dtype), targets)


def reference(x: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    # torchvision.ops.sigmoid_focal_loss(x, targets, alpha=0.25, gamma=2, reduction="none")
    p = torch.sigmoid(x)
    ce = torch.nn.functional.binary_cross_entropy_with_logits(x, targets, reduction="none")
    p_t = p * targets + (1 - p) * (1 - targets)
    loss = ce * (1 - p_t) ** GAMMA
    alpha_t = ALPHA * targets + (1 - ALPHA) * (1 - targets)
    return alpha_t * loss
