"""Reference and inputs for tanh soft-capping of logits (Gemma 2) with a temperature divide."""

import torch

CAP = 30.0


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    B, V = config["B"], config["V"]
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    # Wide enough that many logits lie beyond the cap, where tanh and clamping differ most.
    logits = (torch.randn(B, V, generator=gen, device=device) * 20.0).to(dtype)
    temperature = torch.rand(B, generator=gen, device=device) * 1.5 + 0.3
    return (logits, temperature, CAP)


def reference(logits: torch.Tensor, temperature: torch.Tensor, cap: float) -> torch.Tensor:
    x = logits.double() if logits.dtype == torch.float64 else logits.float()
    out = cap * torch.tanh(x / cap) / temperature.to(x.dtype)[:, None]
    return out.to(logits.dtype)


def exercised(config: dict, logits, temperature, cap) -> dict:
    return {"logits beyond the cap": bool((logits.float().abs() > cap).any())}
