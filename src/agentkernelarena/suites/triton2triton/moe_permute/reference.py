"""Reference and inputs for scattering token rows into expert-sorted order (MoE dispatch)."""

import torch

NUM_EXPERTS = 64


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    T, K, H = config["T"], config["K"], config["H"]
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(T, H, generator=gen, device=device).to(dtype)
    # Each token picks K distinct experts; its (token, slot) pairs are sorted by expert (stably)
    # and dest[t, k] is the pair's row in that order.
    scores = torch.rand(T, NUM_EXPERTS, generator=gen, device=device)
    experts = scores.topk(K, dim=1).indices.flatten()
    order = torch.sort(experts, stable=True).indices
    dest = torch.empty_like(order)
    dest[order] = torch.arange(T * K, device=device)
    return (x, dest.view(T, K).to(torch.int32))


def reference(x: torch.Tensor, dest: torch.Tensor) -> torch.Tensor:
    T, K = dest.shape
    out = torch.empty((T * K, x.shape[1]), dtype=x.dtype, device=x.device)
    out[dest.flatten().long()] = x.repeat_interleave(K, dim=0)
    return out
