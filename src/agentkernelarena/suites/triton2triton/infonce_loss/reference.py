"""Reference and inputs for the per-sample InfoNCE loss."""

import torch

TEMPERATURE = 0.07


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    N, D = config["N"], config["D"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Unit embeddings; each key a noisy copy of its query, so the positives stand out but the
    # loss of a row still depends on the negatives.
    q = torch.nn.functional.normalize(torch.randn(N, D, generator=gen, device=device), dim=-1)
    noise = torch.randn(N, D, generator=gen, device=device)
    k = torch.nn.functional.normalize(q + noise.mul_(1.5 / D**0.5), dim=-1)
    return (q.to(dtype), k.to(dtype), TEMPERATURE)


def _wide(t: torch.Tensor) -> torch.Tensor:
    # float64 stays float64 (the upcast reference); 16-bit inputs give float32 losses.
    return t if t.dtype == torch.float64 else t.float()


def reference(q: torch.Tensor, k: torch.Tensor, temperature: float) -> torch.Tensor:
    logits = (_wide(q) @ _wide(k).T) / temperature
    return torch.logsumexp(logits, dim=-1) - logits.diagonal()
