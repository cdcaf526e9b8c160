"""Known-wrong variants `aka tasks check` must see rejected: the temperature ignored, and the
logits multiplied by it instead of divided."""

import torch


def no_temperature(logits: torch.Tensor, temperature: float) -> torch.Tensor:
    return torch.softmax(logits, dim=-1)


def times_temperature(logits: torch.Tensor, temperature: float) -> torch.Tensor:
    return torch.softmax(logits * temperature, dim=-1)
