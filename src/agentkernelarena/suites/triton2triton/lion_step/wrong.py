"""Known-wrong variants of the Lion step."""

import torch


def momentum_first(param, grad, exp_avg, lr, beta1, beta2, weight_decay):
    # The momentum updated first and its sign used (the interpolation with beta1 skipped).
    m = beta2 * exp_avg + (1.0 - beta2) * grad
    p = param * (1.0 - lr * weight_decay) - lr * torch.sign(m)
    return (p, m)


def no_weight_decay(param, grad, exp_avg, lr, beta1, beta2, weight_decay):
    c = beta1 * exp_avg + (1.0 - beta1) * grad
    p = param - lr * torch.sign(c)
    m = beta2 * exp_avg + (1.0 - beta2) * grad
    return (p, m)


def unsigned_update(param, grad, exp_avg, lr, beta1, beta2, weight_decay):
    # Momentum SGD: the interpolation itself instead of its sign.
    c = beta1 * exp_avg + (1.0 - beta1) * grad
    p = param * (1.0 - lr * weight_decay) - lr * c
    m = beta2 * exp_avg + (1.0 - beta2) * grad
    return (p, m)
