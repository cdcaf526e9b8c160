"""Reference and inputs for the lower median of every row, with its position."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    M, N = config["M"], config["N"]
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    # Distinct values in every row: a random permutation of N grid points, shifted per row so
    # the median's sign varies (float16: multiples of 1/8 of magnitude below 256, exact for
    # N <= 2048; float32: the points jittered by less than half a step and scaled).
    perm = torch.argsort(torch.rand(M, N, generator=gen, device=device), dim=-1)
    shift = torch.randint(-N // 4, N // 4 + 1, (M, 1), generator=gen, device=device)
    grid = (perm - N // 2 + shift).float()
    if dtype == torch.float16:
        x = grid / 8.0
    else:
        noise = torch.rand(M, N, generator=gen, device=device) * 0.5
        x = (grid + noise) * 0.37
    return (x.to(dtype),)


def reference(x: torch.Tensor):
    values, indices = torch.median(x, dim=-1)
    return (values, indices)
