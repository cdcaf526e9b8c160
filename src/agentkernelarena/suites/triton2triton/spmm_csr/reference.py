"""Reference and inputs for sparse (CSR) times dense matrix products."""

import torch


def csr_pattern(M: int, K: int, NNZ: int, gen: torch.Generator, device: str):
    """crow and col of a random M x K pattern with exactly NNZ stored values: row lengths drawn
    heavy-tailed (lognormal row weights, so a few rows hold many values and some none), columns
    uniform and unsorted within a row."""
    w = torch.randn(M, generator=gen, device=device, dtype=torch.float64).mul_(1.2).exp_()
    cw = w.cumsum(0)
    cw /= cw[-1].clone()
    u = torch.rand(NNZ, generator=gen, device=device, dtype=torch.float64)
    rows = torch.searchsorted(cw, u).clamp_(max=M - 1)
    lengths = torch.bincount(rows, minlength=M)
    crow = torch.zeros(M + 1, dtype=torch.int32, device=device)
    crow[1:] = lengths.cumsum(0).to(torch.int32)
    col = torch.randint(0, K, (NNZ,), generator=gen, device=device, dtype=torch.int32)
    return crow, col


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, K, NNZ, N = config["M"], config["K"], config["NNZ"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    crow, col = csr_pattern(M, K, NNZ, gen, device)
    val = torch.randn(NNZ, generator=gen, device=device).to(dtype)
    B = torch.randn(K, N, generator=gen, device=device).to(dtype)
    return (crow, col, val, B)


def reference(crow, col, val, B):
    # Row sums through prefix sums (deterministic, unlike an atomic index_add), 32 columns of B
    # at a time to bound the memory of the float64 products.
    lo, hi = crow[:-1].long(), crow[1:].long()
    colsl = col.long()
    parts = []
    for n0 in range(0, B.shape[1], 32):
        prod = val[:, None] * B[colsl, n0:n0 + 32]
        cs = torch.cat((prod.new_zeros(1, prod.shape[1]), prod.cumsum(0)))
        del prod
        parts.append(cs[hi] - cs[lo])
    return torch.cat(parts, dim=1)


def exercised(config: dict, crow, col, val, B) -> dict:
    lengths = crow[1:] - crow[:-1]
    return {
        "some rows are empty": bool((lengths == 0).any()),
        "row lengths differ": bool(lengths.max() != lengths.min()),
        "a row holds more than 8 values": bool((lengths > 8).any()),
    }
