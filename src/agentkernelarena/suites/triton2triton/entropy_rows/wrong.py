"""Known-wrong variants of the per-row softmax entropy."""

import torch


def log2_entropy(logits: torch.Tensor) -> torch.Tensor:
    # Entropy in bits instead of nats.
    logp = torch.log_softmax(logits, dim=-1)
    return (-(torch.exp(logp) * logp).sum(dim=-1) / torch.log(torch.tensor(2.0))).float()


def missing_max_shift_term(logits: torch.Tensor) -> torch.Tensor:
    # log(sum exp(x - m)) - E[x] with the max m dropped: off by m per row.
    x = logits
    m = x.max(dim=-1, keepdim=True).values
    p = torch.softmax(x, dim=-1)
    return (torch.log(torch.exp(x - m).sum(-1)) - (p * x).sum(-1)).float()


def softmax_rounded_to_input_dtype(logits: torch.Tensor) -> torch.Tensor:
    # Probabilities materialized in a 16-bit dtype before the -p log p sum.
    low = torch.bfloat16
    p = torch.softmax(logits.float(), dim=-1).to(low).float()
    return -(torch.where(p > 0, p * torch.log(p), torch.zeros_like(p))).sum(-1)
