"""Known-wrong variants `aka tasks check` must see rejected: SiLU applied to the up half (the
halves swapped), and the halves taken as interleaved columns (gate = even, up = odd)."""

import torch


def swapped(gate_up: torch.Tensor) -> torch.Tensor:
    n = gate_up.shape[-1] // 2
    up, gate = gate_up[..., :n], gate_up[..., n:]
    return gate * torch.sigmoid(gate) * up


def interleaved(gate_up: torch.Tensor) -> torch.Tensor:
    gate, up = gate_up[..., 0::2], gate_up[..., 1::2]
    return gate * torch.sigmoid(gate) * up
