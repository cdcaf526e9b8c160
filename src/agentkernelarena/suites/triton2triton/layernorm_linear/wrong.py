"""Known-wrong variants of LayerNorm followed by a linear layer."""

import torch


def no_beta(x, gamma, beta, w):
    y = torch.nn.functional.layer_norm(x, (x.shape[-1],), gamma, None, eps=1.0e-5)
    return y @ w.T


def rms_norm(x, gamma, beta, w):
    # The mean not subtracted (an RMSNorm with a bias).
    y = x * torch.rsqrt(x.square().mean(-1, keepdim=True) + 1.0e-5) * gamma + beta
    return y @ w.T
