"""Known-wrong variants of the repetition penalty: a repeated id penalized once per occurrence,
the sign rule ignored (always divide), and padding ids (-1) read as the last vocabulary id."""

import torch


def _penalize(logits, p):
    return torch.where(logits > 0, logits / p, logits * p)


def per_occurrence(logits, history, penalty):
    B, V = logits.shape
    ids = torch.where(history < 0, torch.full_like(history, V), history)
    counts = torch.zeros(B, V + 1, dtype=torch.int64, device=logits.device)
    counts.scatter_add_(1, ids, torch.ones_like(ids))
    counts = counts[:, :V].to(logits.dtype)
    p = penalty.to(logits.dtype)[:, None] ** counts
    return _penalize(logits, p)


def always_divide(logits, history, penalty):
    B, V = logits.shape
    ids = torch.where(history < 0, torch.full_like(history, V), history)
    seen = torch.zeros(B, V + 1, dtype=torch.bool, device=logits.device)
    seen.scatter_(1, ids, True)
    return torch.where(seen[:, :V], logits / penalty.to(logits.dtype)[:, None], logits)


def padding_as_last_id(logits, history, penalty):
    B, V = logits.shape
    ids = torch.where(history < 0, history + V, history)
    seen = torch.zeros(B, V, dtype=torch.bool, device=logits.device)
    seen.scatter_(1, ids, True)
    return torch.where(seen, _penalize(logits, penalty.to(logits.dtype)[:, None]), logits)
