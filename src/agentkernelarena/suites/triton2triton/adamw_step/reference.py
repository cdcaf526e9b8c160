"""Reference and inputs for one AdamW optimizer step (torch.optim.AdamW semantics)."""

import math

import torch

LR, BETA1, BETA2, EPS, WEIGHT_DECAY = 1.0e-3, 0.9, 0.999, 1.0e-8, 0.1


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    n = config["n"]
    gen = torch.Generator(device=device).manual_seed(seed)
    param = torch.randn(n, generator=gen, device=device)
    grad = torch.randn(n, generator=gen, device=device).mul_(0.1)
    # Optimizer state as after some earlier steps: a running mean of gradients and a strictly
    # positive running mean of their squares.
    exp_avg = torch.randn(n, generator=gen, device=device).mul_(0.03)
    exp_avg_sq = torch.randn(n, generator=gen, device=device).mul_(0.1).square_().add_(1.0e-4)
    return (param, grad, exp_avg, exp_avg_sq, LR, BETA1, BETA2, EPS, WEIGHT_DECAY,
            config["step"])


def reference(param, grad, exp_avg, exp_avg_sq, lr, beta1, beta2, eps, weight_decay, step):
    p = param * (1.0 - lr * weight_decay)
    m = beta1 * exp_avg + (1.0 - beta1) * grad
    v = beta2 * exp_avg_sq + (1.0 - beta2) * grad * grad
    bias1 = 1.0 - beta1 ** step
    bias2 = 1.0 - beta2 ** step
    denom = v.sqrt() / math.sqrt(bias2) + eps
    p = p - (lr / bias1) * m / denom
    return (p, m, v)
