"""Reference and inputs for the per-row KL task: out[m] = KL(softmax(target) || softmax(logits))."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    M, N = config["M"], config["N"]
    # A teacher and a student that roughly agree: the target shares part of the logits, with
    # its own noise, per-row offset and temperature, so the divergences spread over (0, few).
    logits = torch.randn(M, N, generator=gen, device=device).mul_(2.0)
    temp = torch.rand(M, 1, generator=gen, device=device).add_(0.5)
    offset = torch.randn(M, 1, generator=gen, device=device).mul_(3.0)
    noise = torch.randn(M, N, generator=gen, device=device).mul_(1.5)
    target = (logits * 0.7 + noise).mul_(temp).add_(offset)
    return (logits.to(dtype), target.to(dtype))


def reference(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if logits.dtype == torch.float64 else torch.float32
    log_q = torch.log_softmax(logits.to(acc), dim=-1)
    log_p = torch.log_softmax(target.to(acc), dim=-1)
    return (log_p.exp() * (log_p - log_q)).sum(-1).to(logits.dtype)
