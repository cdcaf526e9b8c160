"""Reference and inputs for masked mean pooling of token embeddings into sentence embeddings.

hidden is B x S x H, attention_mask a B x S int64 tensor of 0/1 (1 = real token). Every
sequence keeps between half and all of its S tokens, right-padded or (about half of them)
left-padded; with B >= 3 the last sequence is all padding (its embedding is 0).
"""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, S, H = config["B"], config["S"], config["H"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Features with their own offset, as a model's hidden states have.
    offset = torch.randn(H, generator=gen, device=device).mul_(0.5)
    hidden = torch.randn(B, S, H, generator=gen, device=device).add_(offset)
    lengths = torch.randint((S + 1) // 2, S + 1, (B, 1), generator=gen, device=device)
    left = torch.rand(B, 1, generator=gen, device=device) < 0.5
    pos = torch.arange(S, device=device)[None, :]
    mask = torch.where(left, pos >= S - lengths, pos < lengths).to(torch.int64)
    if B >= 3:
        mask[-1] = 0
    return (hidden.to(dtype), mask)


def reference(hidden: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if hidden.dtype == torch.float64 else torch.float32
    m = attention_mask.to(acc).unsqueeze(-1)
    summed = (hidden.to(acc) * m).sum(1)
    return (summed / m.sum(1).clamp(min=1e-9)).to(hidden.dtype)


def min_bytes(config: dict, hidden: torch.Tensor, attention_mask: torch.Tensor) -> float:
    """The real tokens' hidden states, the mask, and the output: padding need not be read."""
    B, S, H = hidden.shape
    return float(int(attention_mask.count_nonzero()) * H * hidden.element_size()
                 + attention_mask.numel() * attention_mask.element_size()
                 + B * H * hidden.element_size())


def exercised(config: dict, hidden: torch.Tensor, attention_mask: torch.Tensor) -> dict:
    S = attention_mask.shape[1]
    first_real = attention_mask[:, 0] == 1
    counts = attention_mask.sum(1)
    return {"a sequence is left-padded (its mask is not a prefix)":
            bool(((~first_real) & (counts > 0)).any()),
            "a sequence is right-padded": bool((first_real & (counts < S)).any()),
            "a sequence is all padding (its embedding is 0)": bool((counts == 0).any())}
