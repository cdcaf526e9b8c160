"""Reference and inputs for the linear + tanh-GELU task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N, K = config["M"], config["N"], config["K"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(M, K, generator=gen, device=device).to(dtype)
    # nn.Linear layout, scaled so x @ w^T has unit scale whatever K is; pre-activations then
    # cover the range where the tanh and erf GELUs differ most (|z| of 1 to 3).
    w = torch.randn(N, K, generator=gen, device=device).mul_(1.5 * K**-0.5).to(dtype)
    b = torch.randn(N, generator=gen, device=device).mul_(0.5).to(dtype)
    return (x, w, b)


def reference(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.gelu(x @ w.T + b, approximate="tanh")
