"""Reference and inputs for the per-token cross-entropy of a language model's logits.

The loss is float32 (float64 for float64 inputs). About one target in eight is -100, the ignore
index of padding and prompt tokens, whose loss is 0.
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
    # At least one ignored and one scored token in every configuration.
    ignored[0] = True
    if M > 1:
        ignored[-1] = False
    targets = targets.masked_fill(ignored, IGNORE_INDEX)
    return (logits, targets)


def reference(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if logits.dtype == torch.float64 else torch.float32
    return torch.nn.functional.cross_entropy(logits.to(acc), targets, ignore_index=IGNORE_INDEX,
                                             reduction="none")


def exercised(config: dict, logits: torch.Tensor, targets: torch.Tensor) -> dict:
    return {"a target is the ignore index -100": bool((targets == IGNORE_INDEX).any()),
            "a target is scored": bool((targets >= 0).any())}
