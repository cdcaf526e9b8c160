"""torch2cuda/cumsum_rows: the PyTorch eager baseline (a running sum along the last dimension of
16-bit data, accumulated in float32 as top-p sampling and segment code do it: cast, scan, cast
back)."""

import torch


def forward(x: torch.Tensor) -> torch.Tensor:
    return torch.cumsum(x, dim=-1, dtype=torch.float32).to(x.dtype)
