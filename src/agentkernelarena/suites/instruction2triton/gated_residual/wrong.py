"""Known-wrong versions of gated_residual that the task's comparison must reject."""

import torch


def gate_on_x(x, g, y):
    return torch.sigmoid(g) * x + y


def tanh_gate(x, g, y):
    return x + torch.tanh(g) * y


def complementary_gate(x, g, y):
    # A highway-style mix: (1 - sigmoid(g)) * x + sigmoid(g) * y.
    s = torch.sigmoid(g)
    return (1.0 - s) * x + s * y


def silu_gate(x, g, y):
    return x + g * torch.sigmoid(g) * y
