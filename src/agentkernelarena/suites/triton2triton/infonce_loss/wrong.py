"""Known-wrong variants of the per-sample InfoNCE loss."""

import torch


def _wide(t: torch.Tensor) -> torch.Tensor:
    # float64 stays float64 (the upcast reference); 16-bit inputs give float32 losses.
    return t if t.dtype == torch.float64 else t.float()


def symmetric_clip(q, k, temperature):
    # The CLIP loss: the mean of both directions (queries against keys and keys against
    # queries) instead of one.
    logits = (_wide(q) @ _wide(k).T) / temperature
    diag = logits.diagonal()
    return 0.5 * (torch.logsumexp(logits, -1) + torch.logsumexp(logits, 0)) - diag


def temperature_multiplied(q, k, temperature):
    logits = (_wide(q) @ _wide(k).T) * temperature
    return torch.logsumexp(logits, dim=-1) - logits.diagonal()


def no_positive_in_denominator(q, k, temperature):
    # The positive left out of the logsumexp (negatives only).
    logits = (_wide(q) @ _wide(k).T) / temperature
    eye = torch.eye(q.shape[0], dtype=torch.bool, device=q.device)
    return torch.logsumexp(logits.masked_fill(eye, float("-inf")), -1) - logits.diagonal()
