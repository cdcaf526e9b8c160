"""Reference and inputs for the scaled dot-product attention task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    shape = (config["B"], config["H"], config["S"], config["D"])
    gen = torch.Generator(device=device).manual_seed(seed)
    # q and k are scaled so the logits have a standard deviation of about 2: the attention
    # weights are neither uniform nor one-hot.
    q = torch.randn(shape, generator=gen, device=device).mul_(1.4).to(dtype)
    k = torch.randn(shape, generator=gen, device=device).mul_(1.4).to(dtype)
    v = torch.randn(shape, generator=gen, device=device).to(dtype)
    return (q, k, v)


def reference(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    scores = (q @ k.transpose(-2, -1)) * q.shape[-1] ** -0.5
    return torch.softmax(scores, dim=-1) @ v
