"""Reference and inputs for mixture-of-experts routing: softmax, top-k, renormalization.

router_logits is T x E; every row holds E distinct values, exactly representable in bfloat16
(distinct integer codes of at most 9 bits times a power-of-two step, shuffled and shifted per
row), so that the top-k choice and its order never depend on rounding or on how ties are
broken.
"""

import math

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    T, E = config["T"], config["E"]
    gen = torch.Generator(device=device).manual_seed(seed)
    step = 2.0 ** round(math.log2(6.0 / E))
    order = torch.rand(T, E, generator=gen, device=device).argsort(dim=1)
    # A per-row shift that keeps every code within [-256, 256] (exact in bfloat16).
    lo, hi = max(-(E // 4), E // 2 - 128), min(E // 4, 127 - (E - 1 - E // 2))
    shift = torch.randint(lo, hi + 1, (T, 1), generator=gen, device=device)
    half = torch.randint(0, 2, (T, E), generator=gen, device=device)
    # Distinct odd/even codes 2 * m + {0, 1}: distinct values, not an evenly spaced set.
    code = 2 * (order - E // 2 + shift) + half
    # Half of the rows get half the step: flatter routing distributions.
    fine = torch.rand(T, 1, generator=gen, device=device) < 0.5
    logits = code.to(torch.float32) * (0.5 * step) * torch.where(fine, 0.5, 1.0)
    return (logits.to(dtype), config["K"])


def reference(router_logits: torch.Tensor, top_k: int) -> tuple:
    acc = torch.float64 if router_logits.dtype == torch.float64 else torch.float32
    probs = torch.softmax(router_logits.to(acc), dim=-1)
    weights, ids = torch.topk(probs, top_k, dim=-1)
    return ((weights / weights.sum(dim=-1, keepdim=True)).to(router_logits.dtype), ids)
