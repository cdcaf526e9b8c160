"""Reference and inputs for an inclusive prefix sum along the last dimension.

y[m, n] = x[m, 0] + ... + x[m, n], accumulated in float32 (float64 for float64 inputs) and
returned in x's 16-bit dtype. The inputs are mostly positive (uniform in [-0.1, 0.9)), so the
running sums grow along the row as probabilities' and lengths' do, and an accumulator kept in
16 bits visibly drifts.
"""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.rand(M, N, generator=gen, device=device).sub_(0.1)
    return (x.to(dtype),)


def reference(x: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    return torch.cumsum(x.to(acc), dim=-1).to(x.dtype)
