"""Reference and inputs for sums over variable-length segments (CSR offsets)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    T, B = config["T"], config["B"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Multiples of 2^-8 in [-2, 2]: every partial sum is exact in float32, so any order of
    # summation (atomics included) gives the exact result.
    x = torch.randn(T, generator=gen, device=device).mul_(256.0).round_().clamp_(-512, 512)
    x = x.div_(256.0)
    # Lengths from the seed, total fixed: one segment (at a random place) holds an eighth of
    # all elements; the others split the rest at uniform random cut points (many short, some
    # empty, a few long).
    big = T // 8
    cuts = torch.randint(0, T - big + 1, (max(B - 2, 0),), generator=gen, device=device)
    cuts = torch.sort(cuts).values
    # Every 16th cut repeats the one before it: an empty segment.
    n_dup = cuts[1::16].numel()
    cuts[1::16] = cuts[0::16][:n_dup].clone()
    lengths = torch.diff(cuts, prepend=cuts.new_zeros(1), append=cuts.new_full((1,), T - big))
    where = int(torch.randint(0, B, (1,), generator=gen, device=device))
    if B == 1:
        lengths = torch.full((1,), T, dtype=torch.int64, device=device)
    else:
        lengths = torch.cat([lengths[:where], lengths.new_full((1,), big), lengths[where:]])
    offsets = torch.zeros(B + 1, dtype=torch.int64, device=device)
    offsets[1:] = torch.cumsum(lengths, 0)
    return (x, offsets.to(torch.int32))


def reference(x: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    c = torch.zeros(x.shape[0] + 1, dtype=torch.float64, device=x.device)
    c[1:] = torch.cumsum(x.double(), 0)
    o = offsets.long()
    return (c[o[1:]] - c[o[:-1]]).to(acc).to(x.dtype)


def exercised(config: dict, x: torch.Tensor, offsets: torch.Tensor) -> dict:
    """The description's rules, seen in these inputs."""
    lengths = offsets[1:] - offsets[:-1]
    return {"empty segments": bool((lengths == 0).any()),
            "a segment of an eighth of all elements": bool((lengths >= x.shape[0] // 8).any())}
