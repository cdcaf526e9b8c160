"""instruction2triton/row_minmax_normalize: the reference and the inputs."""

import torch

EPS = 1e-6


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Rows with their own offset (about +-16) and spread (0.3 to 4): the row minima and ranges
    # differ from row to row and from the whole tensor's.
    shift = torch.randn(M, 1, generator=gen, device=device).mul_(8.0)
    scale = torch.rand(M, 1, generator=gen, device=device).mul_(3.7).add_(0.3)
    x = torch.randn(M, N, generator=gen, device=device).mul_(scale).add_(shift)
    # Every 16th row (from row 5 on) is constant: max - min = 0, the eps decides its output (0).
    x[5::16] = shift[5::16]
    return (x.to(dtype),)


def reference(x: torch.Tensor) -> torch.Tensor:
    mn = x.amin(-1, keepdim=True)
    mx = x.amax(-1, keepdim=True)
    return (x - mn) / (mx - mn + EPS)


def exercised(config: dict, x) -> dict:
    rng = x.amax(-1) - x.amin(-1)
    return {"a constant row (max == min, the eps decides)": bool((rng == 0).any()),
            "rows with different minima": bool(x.amin(-1).unique().numel() > 1)}
