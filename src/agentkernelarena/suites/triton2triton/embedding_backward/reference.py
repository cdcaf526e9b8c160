"""Reference and inputs for the embedding backward pass (scatter-add of rows by token id)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    T, V, D = config["T"], config["V"], config["D"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Token ids as in text: half the tokens come from a few dozen frequent ids (heavy
    # duplication), the rest are spread over the whole vocabulary; ids 0 and V - 1 occur.
    hot = torch.randint(0, V, (48,), generator=gen, device=device)
    pick = torch.randint(0, 48, (T,), generator=gen, device=device)
    spread = torch.randint(0, V, (T,), generator=gen, device=device)
    frequent = torch.rand(T, generator=gen, device=device) < 0.5
    ids = torch.where(frequent, hot[pick], spread)
    ids[0], ids[-1] = 0, V - 1
    grad_out = torch.randn(T, D, generator=gen, device=device).to(dtype)
    return (ids, grad_out, V)


def reference(ids: torch.Tensor, grad_out: torch.Tensor, V: int) -> torch.Tensor:
    acc = torch.float64 if grad_out.dtype == torch.float64 else torch.float32
    out = torch.zeros(V, grad_out.shape[1], dtype=acc, device=grad_out.device)
    return out.index_add_(0, ids, grad_out.to(acc))
