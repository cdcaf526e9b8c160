"""Known-wrong variants of the two-layer MLP (same arguments as the reference)."""

import torch
import torch.nn.functional as F


def relu_missing(x, w1, b1, w2, b2):
    hidden = x.double() @ w1.double().T + b1.double()
    return (hidden @ w2.double().T + b2.double()).to(x.dtype)


def gelu_not_relu(x, w1, b1, w2, b2):
    hidden = F.gelu(x.double() @ w1.double().T + b1.double())
    return (hidden @ w2.double().T + b2.double()).to(x.dtype)


def second_bias_dropped(x, w1, b1, w2, b2):
    hidden = torch.relu(x.double() @ w1.double().T + b1.double())
    return (hidden @ w2.double().T).to(x.dtype)
