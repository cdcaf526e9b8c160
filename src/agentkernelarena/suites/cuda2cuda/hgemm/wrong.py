"""Known-wrong variants of the float16 matrix product (same arguments as the reference)."""

import torch


def half_accumulation(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    # Every partial sum rounded to float16 (accumulating in half precision).
    acc = torch.zeros(a.shape[0], b.shape[1], dtype=torch.float16)
    for k in range(a.shape[1]):
        acc = (acc.float() + a[:, k : k + 1].float() * b[k : k + 1, :].float()).half()
    return acc.to(a.dtype)


def last_k_tile_dropped(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    # A K loop that stops at the last full tile of 16.
    k = max(16, a.shape[1] // 16 * 16) if a.shape[1] % 16 else a.shape[1] - 1
    return a[:, :k] @ b[:k, :]
