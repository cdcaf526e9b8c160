"""Reference and inputs for the temperature-scaled softmax over the vocabulary."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, V = config["M"], config["V"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Rows of different spread, so that some are peaked and some flat.
    spread = torch.rand(M, 1, generator=gen, device=device).mul_(1.5).add_(0.5)
    logits = torch.randn(M, V, generator=gen, device=device).mul_(spread)
    return (logits.to(dtype), float(config["T"]))


def reference(logits: torch.Tensor, temperature: float) -> torch.Tensor:
    acc = torch.float64 if logits.dtype == torch.float64 else torch.float32
    return torch.softmax(logits.to(acc) / temperature, dim=-1).to(logits.dtype)
