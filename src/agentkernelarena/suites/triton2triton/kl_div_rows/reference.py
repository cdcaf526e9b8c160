"""Reference and inputs for the per-row KL divergence task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, V = config["M"], config["V"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Two related distributions per row (a teacher and a student, say), of varied sharpness.
    temp = torch.rand(M, 1, generator=gen, device=device).mul_(2.5).add_(0.5)
    logits_p = torch.randn(M, V, generator=gen, device=device) * temp
    noise = torch.randn(M, V, generator=gen, device=device)
    logits_q = logits_p * 0.8 + noise * temp * 0.6
    logp = torch.log_softmax(logits_p, dim=-1).to(dtype)
    logq = torch.log_softmax(logits_q, dim=-1).to(dtype)
    return (logp, logq)


def reference(logp: torch.Tensor, logq: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if logp.dtype == torch.float64 else torch.float32
    lp, lq = logp.to(acc), logq.to(acc)
    return (torch.exp(lp) * (lp - lq)).sum(dim=-1).to(torch.float32)
