"""Reference and inputs for the row-wise (max, min) task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Rows with their own offset and scale; a quarter of the rows entirely negative and a
    # quarter entirely positive (a -inf/+inf or 0 initial value shows).
    offset = torch.randn(M, 1, generator=gen, device=device).mul_(4.0)
    scale = torch.rand(M, 1, generator=gen, device=device).add_(0.1)
    x = torch.randn(M, N, generator=gen, device=device).mul_(scale).add_(offset)
    x[0::4] = -(x[0::4].abs() + 0.5)
    x[1::4] = x[1::4].abs() + 0.5
    return (x.to(dtype),)


def reference(x: torch.Tensor):
    return (x.amax(dim=1), x.amin(dim=1))
