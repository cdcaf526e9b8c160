"""Reference and inputs for a 3x3 convolution, eval-mode batch norm and ReLU (NCHW)."""

import torch
import torch.nn.functional as F

EPS = 1e-5


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    N, C, H, W, K = config["N"], config["C"], config["H"], config["W"], config["K"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(N, C, H, W, generator=gen, device=device)
    # Scaled so the convolution's outputs have unit scale whatever C is.
    w = torch.randn(K, C, 3, 3, generator=gen, device=device).mul_((9 * C) ** -0.5)
    gamma = torch.rand(K, generator=gen, device=device).mul_(0.7).add_(0.5)
    beta = torch.randn(K, generator=gen, device=device).mul_(0.5)
    # Running statistics near (not equal to) those of the convolution's outputs: the variance
    # from 0.8 to 1.5, so taking the variance for the standard deviation (or batch statistics
    # for the running ones) changes the result well beyond rounding.
    running_mean = torch.randn(K, generator=gen, device=device).mul_(0.3)
    running_var = torch.rand(K, generator=gen, device=device).mul_(0.7).add_(0.8)
    return tuple(t.to(dtype) for t in (x, w, gamma, beta, running_mean, running_var))


def reference(x, w, gamma, beta, running_mean, running_var):
    y = F.conv2d(x, w, padding=1)
    y = F.batch_norm(y, running_mean, running_var, gamma, beta, training=False, eps=EPS)
    return torch.relu(y)
