"""Reference and inputs for the batched Sinkhorn normalization task."""

import torch

EPS = 1e-8


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    B, N, K = config["B"], config["N"], config["K"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Log-normal entries with a wide spread (exp(3 * normal), like exp(score / temperature)),
    # so Sinkhorn converges slowly and every one of the K iterations changes the result.
    x = torch.randn(B, N, N, generator=gen, device=device).mul_(3.0).exp_()
    # About 10% exact zeros, and in every fourth matrix one whole row and one whole column of
    # zeros: their sums are 0, and only the eps keeps them 0 (0 / 0 would be NaN).
    keep = torch.rand(B, N, N, generator=gen, device=device) >= 0.1
    x = x * keep
    rows = torch.randint(0, N, (B,), generator=gen, device=device)
    cols = torch.randint(0, N, (B,), generator=gen, device=device)
    hit = (torch.arange(B, device=device) % 4) == 1
    idx = torch.arange(N, device=device)
    zero_row = hit[:, None, None] & (idx[None, :, None] == rows[:, None, None])
    zero_col = hit[:, None, None] & (idx[None, None, :] == cols[:, None, None])
    x = torch.where(zero_row | zero_col, torch.zeros_like(x), x)
    return (x.contiguous(), K)


def reference(x: torch.Tensor, K: int) -> torch.Tensor:
    for _ in range(K):
        x = x / (x.sum(dim=2, keepdim=True) + EPS)
        x = x / (x.sum(dim=1, keepdim=True) + EPS)
    return x


def exercised(config: dict, x: torch.Tensor, K: int) -> dict:
    """The description's rules, seen in these inputs: zero rows and columns (kept at 0 by the
    eps), and a matrix size that is not a power of two."""
    N = x.shape[-1]
    return {
        "a row of zeros": bool((x.sum(dim=2) == 0).any()),
        "a column of zeros": bool((x.sum(dim=1) == 0).any()),
        "N not a power of two": N & (N - 1) != 0,
    }
