"""Reference and inputs for the CSR segment sum: out[s] = x[offsets[s]:offsets[s+1]].sum(0)."""

import torch


def _lengths(N: int, S: int) -> torch.Tensor:
    """Segment lengths fixed by the configuration (the seed only permutes them): log-normal,
    so a few segments are tens of times longer than the mean, and one in twenty is empty."""
    g0 = torch.Generator().manual_seed(1_000_003 * S + N)
    w = torch.exp(torch.randn(S, generator=g0, dtype=torch.float64) * 1.25)
    if S >= 2:
        w[torch.randperm(S, generator=g0)[: max(1, S // 20)]] = 0.0
    exact = w / w.sum() * N
    lengths = torch.floor(exact).long()
    rest = N - int(lengths.sum())  # the largest remainders get one row more
    lengths[torch.topk(exact - lengths, rest).indices] += 1
    return lengths


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    N, D, S = config["N"], config["D"], config["S"]
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    lengths = _lengths(N, S).to(device)[torch.randperm(S, generator=gen, device=device)]
    offsets = torch.zeros(S + 1, dtype=torch.int64, device=device)
    offsets[1:] = torch.cumsum(lengths, 0)
    # Multiples of 1/8 in [-4, 4]: exact in every dtype, and every partial sum is exact in
    # float32, so any order of accumulation gives the reference's result.
    x = torch.randint(-32, 33, (N, D), generator=gen, device=device).to(torch.float32).div_(8)
    return (x.to(dtype), offsets)


def reference(x: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    S = offsets.shape[0] - 1
    lengths = offsets[1:] - offsets[:-1]
    seg = torch.repeat_interleave(torch.arange(S, device=x.device), lengths)
    out = torch.zeros(S, x.shape[1], dtype=acc, device=x.device)
    return out.index_add_(0, seg, x.to(acc))


def exercised(config: dict, x, offsets) -> dict:
    lengths = offsets[1:] - offsets[:-1]
    return {"empty segments": bool((lengths == 0).any()),
            "a segment of more than 64 rows": bool((lengths > 64).any()),
            "D not a multiple of 8": config["D"] % 8 != 0}


def max_segment(config: dict) -> int:
    """The longest segment of a configuration (the baseline's critical path)."""
    return int(_lengths(config["N"], config["S"]).max())
