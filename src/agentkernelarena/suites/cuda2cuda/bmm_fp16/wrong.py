"""Known-wrong variants of the batched float16 matrix product (reference's arguments)."""

import torch


def first_batch_b(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    # The B matrix of the first batch used for every batch (a missing batch stride).
    return torch.matmul(a, b[:1])


def half_accumulation(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    acc = torch.zeros(a.shape[0], a.shape[1], b.shape[2], dtype=torch.float16)
    for k in range(a.shape[2]):
        acc = (acc.float() + a[:, :, k : k + 1].float() * b[:, k : k + 1, :].float()).half()
    return acc.to(a.dtype)
