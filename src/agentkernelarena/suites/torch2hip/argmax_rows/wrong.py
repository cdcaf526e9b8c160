"""Known-wrong variants of the row-wise argmax (same arguments as the reference)."""

import torch


def argmax_of_abs(x: torch.Tensor) -> torch.Tensor:
    return torch.argmax(x.abs(), dim=-1)


def tail_not_read(x: torch.Tensor) -> torch.Tensor:
    # A kernel reading whole blocks of 64 columns (or all but the last column of a row shorter
    # than one block) and dropping the rest.
    N = x.shape[-1]
    n = N - N % 64 if N >= 64 and N % 64 else N - 1
    return torch.argmax(x[:, :n], dim=-1)
