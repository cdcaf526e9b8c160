"""Reference and inputs for liger-kernel's per-token cross-entropy forward."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    logits = torch.randn(config["BT"], config["V"], generator=gen, device=device)
    logits = logits.mul_(3.0).to(dtype)
    target = torch.randint(0, config["V"], (config["BT"],), generator=gen, device=device)
    return (logits, target)


def reference(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.cross_entropy(logits, target, reduction="none")
