"""Reference and inputs for temperature + min-p filtering of next-token probabilities."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    B, V = config["B"], config["V"]
    gen = torch.Generator(device=device).manual_seed(seed)
    logits = torch.randn(B, V, generator=gen, device=device, dtype=torch.float64).mul_(3.0)
    temperature = torch.rand(B, generator=gen, device=device, dtype=torch.float64) + 0.5
    min_p = torch.rand(B, generator=gen, device=device, dtype=torch.float64) * 0.18 + 0.02
    # Keep every logit at least 1e-3 (in units of log-probability) away from the cut, so the
    # kept set does not depend on rounding.
    z = logits / temperature[:, None]
    margin = z - z.max(dim=1, keepdim=True).values - torch.log(min_p)[:, None]
    near = margin.abs() < 1e-3
    logits = torch.where(near, logits + 2e-3 * temperature[:, None], logits)
    return (logits.to(torch.float32), temperature.to(torch.float32), min_p.to(torch.float32))


def reference(logits: torch.Tensor, temperature: torch.Tensor, min_p: torch.Tensor):
    probs = torch.softmax(logits / temperature[:, None], dim=-1)
    keep = probs >= min_p[:, None] * probs.max(dim=-1, keepdim=True).values
    kept = torch.where(keep, probs, torch.zeros_like(probs))
    return kept / kept.sum(dim=-1, keepdim=True)
