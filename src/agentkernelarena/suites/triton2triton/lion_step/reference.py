"""Reference and inputs for one Lion optimizer step."""

import torch

LR, BETA1, BETA2, WEIGHT_DECAY = 3.0e-4, 0.9, 0.99, 0.1


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    n = config["n"]
    gen = torch.Generator(device=device).manual_seed(seed)
    param = torch.randn(n, generator=gen, device=device)
    grad = torch.randn(n, generator=gen, device=device).mul_(0.1)
    exp_avg = torch.randn(n, generator=gen, device=device).mul_(0.05)
    # Keep the interpolation c away from 0, where a rounding difference would flip its sign:
    # where |c| < TAU, move the gradient so that |c| >= TAU with c's sign kept.
    tau = 1.0e-3
    c = BETA1 * exp_avg + (1.0 - BETA1) * grad
    sgn = torch.where(c >= 0, 1.0, -1.0)
    grad = torch.where(c.abs() < tau, grad + sgn * (2.0 * tau / (1.0 - BETA1)), grad)
    return (param, grad, exp_avg, LR, BETA1, BETA2, WEIGHT_DECAY)


def reference(param, grad, exp_avg, lr, beta1, beta2, weight_decay):
    c = beta1 * exp_avg + (1.0 - beta1) * grad
    p = param * (1.0 - lr * weight_decay) - lr * torch.sign(c)
    m = beta2 * exp_avg + (1.0 - beta2) * grad
    return (p, m)
