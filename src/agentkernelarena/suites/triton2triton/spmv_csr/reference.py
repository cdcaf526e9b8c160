"""Reference and inputs for the CSR sparse matrix-vector product."""

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
    M, K, NNZ = config["M"], config["K"], config["NNZ"]
    gen = torch.Generator(device=device).manual_seed(seed)
    crow, col = csr_pattern(M, K, NNZ, gen, device)
    val = torch.randn(NNZ, generator=gen, device=device)
    x = torch.randn(K, generator=gen, device=device)
    return (crow, col, val, x)


def reference(crow, col, val, x):
    # Row sums through a prefix sum (deterministic, unlike an atomic index_add).
    prod = val * x[col.long()]
    cs = torch.cat((prod.new_zeros(1), prod.cumsum(0)))
    return cs[crow[1:].long()] - cs[crow[:-1].long()]


def exercised(config: dict, crow, col, val, x) -> dict:
    lengths = crow[1:] - crow[:-1]
    return {
        "some rows are empty": bool((lengths == 0).any()),
        "row lengths differ": bool(lengths.max() != lengths.min()),
        "a row holds more than 64 values": bool((lengths > 64).any()),
    }
