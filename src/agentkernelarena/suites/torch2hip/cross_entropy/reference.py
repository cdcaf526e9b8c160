"""Reference and inputs for the per-token cross-entropy of a language model's logits.

The loss is computed in float32 (float64 for float64 inputs) and returned in the logits' dtype.

About one target in eight is -100, the ignore index of padding and prompt tokens (loss 0).
"""

import torch

IGNORE_INDEX = -100


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, V = config["M"], config["V"]
    gen = torch.Generator(device=device).manual_seed(seed)
    logits = torch.randn(M, V, generator=gen, device=device).mul_(3.0).to(dtype)
    targets = torch.randint(0, V, (M,), generator=gen, device=device, dtype=torch.int64)
    ignored = torch.rand(M, generator=gen, device=device) < 0.125
    targets = targets.masked_fill(ignored, IGNORE_INDEX)
    return (logits, targets)


def reference(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if logits.dtype == torch.float64 else torch.float32
    loss = torch.nn.functional.cross_entropy(
        logits.to(acc), targets, ignore_index=IGNORE_INDEX, reduction="none"
    )
    return loss.to(logits.dtype)
