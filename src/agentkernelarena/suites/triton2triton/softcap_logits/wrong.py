"""Known-wrong variants of soft-capping: a hard clamp to [-cap, cap] instead of tanh, and the
temperature divided in before the cap."""

import torch


def clamp_instead_of_tanh(logits, temperature, cap):
    out = logits.clamp(-cap, cap) / temperature.to(logits.dtype)[:, None]
    return out.to(logits.dtype)


def temperature_before_cap(logits, temperature, cap):
    x = logits / temperature.to(logits.dtype)[:, None]
    return (cap * torch.tanh(x / cap)).to(logits.dtype)
