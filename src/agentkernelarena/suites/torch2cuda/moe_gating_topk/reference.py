"""Reference and inputs for mixture-of-experts routing: softmax, top-k, renormalization.

combine[t, e] is, for the k = 4 experts e with the largest softmax probabilities of row t, that
probability divided by the sum of the four, and 0 for every other expert (float32; float64 for
float64 inputs).

The logits of a row are distinct multiples of 1/16 in [-8, 8) (E distinct codes of 256, in a
random order), exact in float16 and bfloat16, so no rounding can make a tie or flip the order
of two experts; float32 logits get a small extra jitter (less than a quarter of the spacing)
so that they are not exact in bfloat16.
"""

import torch

TOP_K = 4


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    T, E = config["T"], config["E"]
    assert E <= 256
    gen = torch.Generator(device=device).manual_seed(seed)
    codes = torch.rand(T, 256, generator=gen, device=device).argsort(dim=1)[:, :E]
    logits = (codes.to(torch.float32) - 128.0) / 16.0
    if dtype == torch.float32:
        logits += torch.rand(T, E, generator=gen, device=device).sub_(0.5).mul_(0.02)
    return (logits.to(dtype),)


def reference(router_logits: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if router_logits.dtype == torch.float64 else torch.float32
    probs = torch.softmax(router_logits.to(acc), dim=-1)
    weights, ids = torch.topk(probs, TOP_K, dim=-1)
    return torch.zeros_like(probs).scatter_(1, ids, weights / weights.sum(dim=-1, keepdim=True))
