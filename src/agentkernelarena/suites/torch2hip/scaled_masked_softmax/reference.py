"""Reference and inputs for the scaled, masked attention softmax.

scores is B x H x S x S (pre-scale attention logits), mask a B x 1 x S x S bool tensor that is
True where a query may NOT attend: causal (key after query), key padding (each sequence has a
random length of at least half of S) or a dropped key (1 in 16, anywhere but key 0), so every
row keeps key 0 and the kept scores are about 0.35 * S * S (at least 0.3 * S * S: what `bytes`
counts).
"""

import torch

SCALE = 128**-0.5  # 1 / sqrt(head_dim) with head_dim 128


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, H, S = config["B"], config["H"], config["S"]
    gen = torch.Generator(device=device).manual_seed(seed)
    scores = torch.randn(B, H, S, S, generator=gen, device=device).mul_(8.0).to(dtype)
    lengths = torch.randint((S + 1) // 2, S + 1, (B, 1, 1, 1), generator=gen, device=device)
    pos = torch.arange(S, device=device)
    causal = pos.view(1, 1, 1, S) > pos.view(1, 1, S, 1)
    # Dropped keys anywhere (1 in 16), never key 0: the mask is no causal-and-padding pattern.
    holes = (torch.rand(B, 1, S, S, generator=gen, device=device) < 1 / 16) & (pos > 0)
    mask = causal | (pos.view(1, 1, 1, S) >= lengths) | holes
    return (scores, mask)


def reference(scores: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if scores.dtype == torch.float64 else torch.float32
    s = (scores.to(acc) * SCALE).masked_fill(mask, float("-inf"))
    return torch.softmax(s, dim=-1).to(scores.dtype)


def min_bytes(config: dict, scores: torch.Tensor, mask: torch.Tensor) -> int:
    """What a correct kernel must move: the kept scores of every head, the mask once, and y."""
    size, heads = scores.element_size(), config["H"]
    kept = int((~mask).sum()) * heads
    return kept * size + mask.numel() + scores.numel() * size


def exercised(config: dict, scores: torch.Tensor, mask: torch.Tensor) -> dict:
    """The description's rule, seen in these inputs: a mask that is not causal-and-padding
    (some row drops a key before a kept one)."""
    kept = (~mask).to(torch.int32)
    suffix_kept = kept.flip(-1).cummax(-1).values.flip(-1).bool()
    return {"mask is no causal/padding pattern": bool((mask & suffix_kept).any())}
