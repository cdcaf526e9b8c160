"""Reference and inputs for LayerNorm followed by a linear layer."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, K, N = config["M"], config["K"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(M, K, generator=gen, device=device).mul_(1.7).add_(0.4).to(dtype)
    gamma = torch.randn(K, generator=gen, device=device).mul_(0.2).add_(1.0).to(dtype)
    beta = torch.randn(K, generator=gen, device=device).mul_(0.3).to(dtype)
    w = torch.randn(N, K, generator=gen, device=device).mul_(K**-0.5).to(dtype)
    return (x, gamma, beta, w)


def reference(x, gamma, beta, w):
    y = torch.nn.functional.layer_norm(x, (x.shape[-1],), gamma, beta, eps=1.0e-5)
    return y @ w.T
