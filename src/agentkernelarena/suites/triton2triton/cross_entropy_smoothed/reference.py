"""Reference and inputs for per-row cross-entropy with label smoothing and ignore_index."""

import torch

IGNORE_INDEX = -100


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, V = config["M"], config["V"]
    gen = torch.Generator(device=device).manual_seed(seed)
    logits = torch.randn(M, V, generator=gen, device=device).mul_(2.0).add_(1.0).to(dtype)
    targets = torch.randint(0, V, (M,), generator=gen, device=device, dtype=torch.int64)
    ignored = torch.rand(M, generator=gen, device=device) < 0.125
    targets = torch.where(ignored, torch.full_like(targets, IGNORE_INDEX), targets)
    targets[0] = V - 1
    if M > 1:
        targets[-1] = IGNORE_INDEX  # every configuration has a padding row
    return (logits, targets, config["EPS"])


def reference(logits: torch.Tensor, targets: torch.Tensor, eps: float) -> torch.Tensor:
    acc = torch.float64 if logits.dtype == torch.float64 else torch.float32
    loss = torch.nn.functional.cross_entropy(logits.to(acc), targets, reduction="none",
                                             ignore_index=IGNORE_INDEX, label_smoothing=eps)
    return loss.to(torch.float32)
