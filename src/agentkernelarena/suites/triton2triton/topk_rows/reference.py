"""Reference and inputs for row-wise top-k (the candidate set of top-k sampling)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    B, V = config["B"], config["V"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Every row is a shuffled set of V distinct, evenly spaced values (spacing at least 4 / V,
    # far above float32 rounding), scaled and shifted per row: the top-k and its order never
    # depend on tie-breaking.
    perm = torch.rand(B, V, generator=gen, device=device).argsort(dim=1)
    scale = torch.rand(B, 1, generator=gen, device=device, dtype=torch.float64) + 0.5
    shift = torch.randn(B, 1, generator=gen, device=device, dtype=torch.float64)
    logits = (perm.to(torch.float64) * (8.0 / V) - 4.0) * scale + shift
    logits = logits.to(torch.float32)
    return (logits, config["K"])


def reference(logits: torch.Tensor, k: int):
    values, indices = torch.topk(logits, k, dim=-1)
    return (values, indices)
