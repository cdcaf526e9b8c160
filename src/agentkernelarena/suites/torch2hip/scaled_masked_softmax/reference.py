"""Reference and inputs for the scaled, masked attention softmax.

scores is B x H x S x S (pre-scale attention logits), mask a B x 1 x S x S bool tensor that is
True where a query may NOT attend: causal (key after query) or key padding (each sequence has
a random length of at least one), so every row keeps at least key 0.
"""

import torch

SCALE = 128**-0.5  # 1 / sqrt(head_dim) with head_dim 128


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, H, S = config["B"], config["H"], config["S"]
    gen = torch.Generator(device=device).manual_seed(seed)
    scores = torch.randn(B, H, S, S, generator=gen, device=device).mul_(8.0).to(dtype)
    lengths = torch.randint(1, S + 1, (B, 1, 1, 1), generator=gen, device=device)
    pos = torch.arange(S, device=device)
    causal = pos.view(1, 1, 1, S) > pos.view(1, 1, S, 1)
    mask = causal | (pos.view(1, 1, 1, S) >= lengths)
    return (scores, mask)


def reference(scores: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if scores.dtype == torch.float64 else torch.float32
    s = (scores.to(acc) * SCALE).masked_fill(mask, float("-inf"))
    return torch.softmax(s, dim=-1).to(scores.dtype)
