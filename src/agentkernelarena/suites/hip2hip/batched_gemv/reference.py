"""Reference and inputs for the batched GEMV task: y[b] = w[b] @ x[b], float32 accumulation."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    B, N, K = config["B"], config["N"], config["K"]
    # Weights of a linear layer (scaled by 1/sqrt(K)) and activations of order one: the outputs
    # are of order one too, and almost none of them is near zero.
    w = torch.randn(B, N, K, generator=gen, device=device).mul_(K**-0.5)
    x = torch.randn(B, K, generator=gen, device=device)
    return (w.to(dtype), x.to(dtype))


def reference(w: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if w.dtype == torch.float64 else torch.float32
    return torch.bmm(w.to(acc), x.to(acc).unsqueeze(-1)).squeeze(-1).to(w.dtype)


def exercised(config: dict, *inputs) -> dict:
    """The description's rule, seen in this configuration (`aka tasks check`)."""
    return {"K not a multiple of 8": config["K"] % 8 != 0}
