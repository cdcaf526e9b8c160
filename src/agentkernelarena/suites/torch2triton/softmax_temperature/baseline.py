"""torch2triton/softmax_temperature: the PyTorch eager baseline (a sampler's temperature-scaled
softmax over a language model's vocabulary, as generation code writes it: the logits upcast to
float32, divided by the temperature, softmaxed, and the probabilities cast back to the logits'
dtype)."""

import torch


def forward(logits: torch.Tensor, temperature: float) -> torch.Tensor:
    probs = torch.softmax(logits.float() / temperature, dim=-1)
    return probs.to(logits.dtype)
