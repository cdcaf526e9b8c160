"""Reference and inputs for the BatchNorm inference (running statistics) task."""

import torch

EPS = 1e-5


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    N, C, HW = config["N"], config["C"], config["HW"]
    gen = torch.Generator(device=device).manual_seed(seed)
    mean = torch.randn(C, generator=gen, device=device)
    var = torch.rand(C, generator=gen, device=device).mul_(2.0).add_(0.1)
    var[1::5] = torch.rand(len(range(1, C, 5)), generator=gen, device=device).mul_(2.0e-5)
    std = var.sqrt()[None, :, None]
    # Activations distributed around the running statistics, channel by channel.
    x = (torch.randn(N, C, HW, generator=gen, device=device) * std + mean[None, :, None])
    weight = torch.rand(C, generator=gen, device=device).add_(0.5)
    bias = torch.randn(C, generator=gen, device=device)
    return (x.to(dtype), mean, var, weight, bias)


def reference(x, running_mean, running_var, weight, bias):
    y = torch.nn.functional.batch_norm(x.to(running_mean.dtype), running_mean, running_var,
                                       weight, bias, training=False, eps=EPS)
    return y.to(x.dtype)


def exercised(config: dict, x, running_mean, running_var, weight, bias) -> dict:
    """The description's rules, seen in these inputs (`aka tasks check`)."""
    return {"a channel whose variance is below eps": bool((running_var < EPS).any())}
