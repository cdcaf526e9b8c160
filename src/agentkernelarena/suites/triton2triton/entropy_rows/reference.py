"""Reference and inputs for the per-row softmax entropy task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, V = config["M"], config["V"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Rows of varied sharpness (entropies from near log V down to a few nats), with an offset
    # so that logits are not centred on zero.
    temp = torch.rand(M, 1, generator=gen, device=device).mul_(5.5).add_(0.5)
    offset = torch.randn(M, 1, generator=gen, device=device).mul_(4.0)
    logits = torch.randn(M, V, generator=gen, device=device) * temp + offset
    return (logits.to(dtype),)


def reference(logits: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if logits.dtype == torch.float64 else torch.float32
    logp = torch.log_softmax(logits.to(acc), dim=-1)
    return -(torch.exp(logp) * logp).sum(dim=-1).to(torch.float32)
