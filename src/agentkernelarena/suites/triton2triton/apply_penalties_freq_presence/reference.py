"""Reference and inputs for OpenAI-style frequency and presence penalties on logits."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    B, V = config["B"], config["V"]
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    logits = (torch.randn(B, V, generator=gen, device=device) * 4.0).to(dtype)
    # Output-token counts: about 10% of the vocabulary seen, 1 to 6 times.
    seen = torch.rand(B, V, generator=gen, device=device) < 0.1
    counts = torch.randint(1, 7, (B, V), generator=gen, device=device, dtype=torch.int32)
    counts = torch.where(seen, counts, torch.zeros_like(counts))
    frequency = torch.rand(B, generator=gen, device=device) * 1.5 + 0.1
    presence = torch.rand(B, generator=gen, device=device) * 1.5 + 0.1
    return (logits, counts, frequency, presence)


def reference(logits, counts, frequency, presence):
    x = logits.double() if logits.dtype == torch.float64 else logits.float()
    c = counts.to(x.dtype)
    out = x - frequency.to(x.dtype)[:, None] * c - presence.to(x.dtype)[:, None] * (c > 0)
    return out.to(logits.dtype)


def exercised(config: dict, logits, counts, frequency, presence) -> dict:
    return {"tokens seen more than once": bool((counts > 1).any()),
            "unseen tokens": bool((counts == 0).any())}
