"""Reference and inputs for the sparse CSR matrix-vector product task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    M, N, nnz = config["M"], config["N"], config["nnz"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Row boundaries at sorted uniform cut points: row lengths are irregular (roughly
    # exponential around nnz / M, with empty rows and rows several times the mean), while
    # nnz, and so every shape, depends on the configuration only.
    cuts = torch.randint(0, nnz + 1, (M - 1,), generator=gen, device=device).sort().values
    zero = torch.zeros(1, dtype=cuts.dtype, device=device)
    end = torch.full((1,), nnz, dtype=cuts.dtype, device=device)
    row_ptr = torch.cat((zero, cuts, end)).to(torch.int32)
    col_idx = torch.randint(0, N, (nnz,), generator=gen, device=device).to(torch.int32)
    values = torch.randn(nnz, generator=gen, device=device)
    x = torch.randn(N, generator=gen, device=device)
    return (row_ptr, col_idx, values, x)


def reference(row_ptr: torch.Tensor, col_idx: torch.Tensor, values: torch.Tensor,
              x: torch.Tensor) -> torch.Tensor:
    M = row_ptr.shape[0] - 1
    lengths = (row_ptr[1:] - row_ptr[:-1]).long()
    rows = torch.repeat_interleave(torch.arange(M, device=x.device), lengths)
    y = torch.zeros(M, dtype=values.dtype, device=x.device)
    return y.index_add_(0, rows, values * x[col_idx.long()])


def exercised(config: dict, row_ptr, col_idx, values, x) -> dict:
    """The description's rules, seen in these inputs (`aka tasks check`)."""
    lengths = (row_ptr[1:] - row_ptr[:-1]).long()
    mean = config["nnz"] / config["M"]
    return {"empty rows": bool((lengths == 0).any()),
            "rows over three times the mean length": bool((lengths > 3 * mean).any())}
