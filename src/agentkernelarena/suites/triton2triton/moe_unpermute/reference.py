"""Reference and inputs for un-permuting MoE expert outputs back to token order, weighted."""

import torch

NUM_EXPERTS = 64


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    T, K, H = config["T"], config["K"], config["H"]
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    # Expert outputs in expert-sorted order: row dest[t, k] belongs to token t's k-th expert.
    y = torch.randn(T * K, H, generator=gen, device=device).to(dtype)
    scores = torch.rand(T, NUM_EXPERTS, generator=gen, device=device)
    experts = scores.topk(K, dim=1).indices.flatten()
    order = torch.sort(experts, stable=True).indices
    dest = torch.empty_like(order)
    dest[order] = torch.arange(T * K, device=device)
    weights = torch.rand(T, K, generator=gen, device=device) * 1.5 + 0.1
    return (y, dest.view(T, K).to(torch.int32), weights)


def reference(y: torch.Tensor, dest: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
    T, K = dest.shape
    rows = y[dest.flatten().long()].view(T, K, -1).float()
    return (rows * weights.float()[..., None]).sum(dim=1).to(y.dtype)
