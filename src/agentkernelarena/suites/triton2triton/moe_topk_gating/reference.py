"""Reference and inputs for MoE router gating: softmax, top-k experts, renormalized weights."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    T, E = config["T"], config["E"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Every row holds E distinct values (a shuffled, evenly spaced set, scaled and shifted per
    # row), so the top-k choice never depends on how ties are broken.
    base = torch.linspace(-3.0, 3.0, E, device=device, dtype=torch.float64)
    order = torch.rand(T, E, generator=gen, device=device).argsort(dim=1)
    scale = torch.rand(T, 1, generator=gen, device=device, dtype=torch.float64) * 1.5 + 0.5
    shift = torch.randn(T, 1, generator=gen, device=device, dtype=torch.float64)
    logits = (base[order] * scale + shift).to(torch.float32)
    return (logits, config["K"])


def reference(logits: torch.Tensor, k: int):
    probs = torch.softmax(logits, dim=-1)
    weights, ids = torch.topk(probs, k, dim=-1)
    return (weights / weights.sum(dim=-1, keepdim=True), ids.to(torch.int32))
