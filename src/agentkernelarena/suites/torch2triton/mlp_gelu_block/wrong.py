"""Known-wrong variants `aka tasks check` must see rejected: ReLU in place of the GELU, the
activation left out, and either bias left out."""

import torch
import torch.nn.functional as F


def relu(x, w1, b1, w2, b2):
    return F.linear(torch.relu(F.linear(x, w1, b1)), w2, b2)


def no_activation(x, w1, b1, w2, b2):
    return F.linear(F.linear(x, w1, b1), w2, b2)


def first_bias_dropped(x, w1, b1, w2, b2):
    return F.linear(F.gelu(F.linear(x, w1), approximate="tanh"), w2, b2)


def second_bias_dropped(x, w1, b1, w2, b2):
    return F.linear(F.gelu(F.linear(x, w1, b1), approximate="tanh"), w2)

