"""Reference and inputs for a Linear layer followed by ReLU: y = relu(x @ weight.T + bias).

x is M x K, weight N x K (nn.Linear's layout), bias N, all float16 or bfloat16; the products
are summed in float32 (float64 for float64 inputs) and y is returned in x's dtype.
"""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N, K = config["M"], config["N"], config["K"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(M, K, generator=gen, device=device).to(dtype)
    weight = torch.randn(N, K, generator=gen, device=device).mul_(K ** -0.5).to(dtype)
    bias = torch.randn(N, generator=gen, device=device).mul_(0.5).to(dtype)
    return (x, weight, bias)


def reference(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    y = x.to(acc) @ weight.to(acc).t() + bias.to(acc)
    return torch.relu(y).to(x.dtype)
