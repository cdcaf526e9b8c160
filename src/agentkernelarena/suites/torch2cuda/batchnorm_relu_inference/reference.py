"""Reference and inputs for inference BatchNorm2d followed by ReLU (NCHW).

y[n, c, :, :] = relu((x[n, c] - running_mean[c]) / sqrt(running_var[c] + 1e-5) * weight[c]
+ bias[c]), in float32 (float64 for float64 inputs), in x's dtype. The per-channel parameters
and statistics are float32 whatever x's dtype.
"""

import torch

EPS = 1e-5


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    N, C, H, W = config["N"], config["C"], config["H"], config["W"]
    gen = torch.Generator(device=device).manual_seed(seed)
    running_mean = torch.randn(C, generator=gen, device=device).mul_(0.5)
    # Variances from 1e-3 to 2 (log-uniform): channels with small ones make eps matter.
    running_var = torch.pow(10.0, torch.rand(C, generator=gen, device=device).mul_(3.3).sub_(3.0))
    weight = torch.randn(C, generator=gen, device=device).mul_(0.5).add_(1.0)
    bias = torch.randn(C, generator=gen, device=device).mul_(0.3)
    # Activations around their channel's running statistics (what the layer saw in training).
    x = torch.randn(N, C, H, W, generator=gen, device=device)
    x = x.mul_(running_var.sqrt()[:, None, None]).add_(running_mean[:, None, None])
    return (x.to(dtype), weight, bias, running_mean, running_var)


def reference(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor,
              running_mean: torch.Tensor, running_var: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    def per_channel(t: torch.Tensor) -> torch.Tensor:
        return t.to(acc)[:, None, None]
    scale = per_channel(weight) * torch.rsqrt(per_channel(running_var) + EPS)
    y = (x.to(acc) - per_channel(running_mean)) * scale + per_channel(bias)
    return torch.relu(y).to(x.dtype)
