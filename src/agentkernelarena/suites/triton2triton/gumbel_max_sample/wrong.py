"""Known-wrong variants of Gumbel-max sampling: the temperature multiplied instead of divided,
the temperature applied to the noise as well, and the noise left out (greedy)."""

import torch


def times_temperature(logits, temperature, noise):
    return torch.argmax(logits * temperature[:, None] + noise, dim=1)


def noise_scaled_too(logits, temperature, noise):
    return torch.argmax((logits + noise) / temperature[:, None], dim=1)


def greedy(logits, temperature, noise):
    return torch.argmax(logits, dim=1)
