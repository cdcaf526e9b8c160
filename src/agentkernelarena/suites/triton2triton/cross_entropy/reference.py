"""Reference and inputs for the per-row cross-entropy task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, V = config["M"], config["V"]
    gen = torch.Generator(device=device).manual_seed(seed)
    logits = torch.randn(M, V, generator=gen, device=device).mul_(2.0).to(dtype)
    targets = torch.randint(0, V, (M,), generator=gen, device=device, dtype=torch.int64)
    return (logits, targets)


def reference(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    lf = logits if logits.dtype == torch.float64 else logits.float()
    return torch.nn.functional.cross_entropy(lf, targets, reduction="none")
