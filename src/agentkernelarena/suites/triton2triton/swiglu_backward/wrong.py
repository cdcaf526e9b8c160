"""Known-wrong variants of the SwiGLU backward: silu'(g) taken as sigmoid(g), and the roles of
gate and up exchanged (out = g * silu(u))."""

import torch


def sigmoid_as_silu_grad(g: torch.Tensor, u: torch.Tensor, dy: torch.Tensor):
    s = torch.sigmoid(g)
    return (dy * u * s, dy * g * s)


def gate_and_up_swapped(g: torch.Tensor, u: torch.Tensor, dy: torch.Tensor):
    s = torch.sigmoid(u)
    return (dy * u * s, dy * g * s * (1.0 + u * (1.0 - s)))
