"""Reference and inputs for top-k filtering and renormalization of next-token probabilities."""

import math

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    B, V = config["B"], config["V"]
    gen = torch.Generator(device=device).manual_seed(seed)
    logits = torch.randn(B, V, generator=gen, device=device, dtype=torch.float64) * 2.5
    probs = torch.softmax(logits, dim=1).to(torch.float32)
    # k per row, log-uniform in [1, V]; the first row keeps one token and the last all of them.
    u = torch.rand(B, generator=gen, device=device, dtype=torch.float64)
    k = torch.exp(u * math.log(V)).floor().clamp(1, V).to(torch.int32)
    k[0] = 1
    k[-1] = V
    # No ties at the k-th value: where the (k+1)-th largest equals the k-th, lower it a little.
    vals, idx = probs.sort(dim=1, descending=True)
    kk = k.long()[:, None]
    kth = vals.gather(1, kk - 1)
    nxt_pos = kk.clamp(max=V - 1)
    nxt = vals.gather(1, nxt_pos)
    tie = (nxt == kth) & (kk < V)
    nxt_idx = idx.gather(1, nxt_pos)
    lowered = probs.gather(1, nxt_idx) * (1.0 - 2.0 ** -18)
    probs = probs.scatter(1, nxt_idx, torch.where(tie, lowered, probs.gather(1, nxt_idx)))
    return (probs, k)


def reference(probs: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    vals = probs.sort(dim=1, descending=True).values
    kth = vals.gather(1, k.long()[:, None] - 1)
    kept = torch.where(probs >= kth, probs, torch.zeros_like(probs))
    return kept / kept.sum(dim=1, keepdim=True)


def exercised(config: dict, probs, k) -> dict:
    V = probs.shape[1]
    return {"k = 1": bool((k == 1).any()), "k = V": bool((k == V).any()),
            "1 < k < V": bool(((k > 1) & (k < V)).any())}
