"""Reference and inputs for prefix sums restarting at segment boundaries (CSR offsets)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    T, B = config["T"], config["B"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Multiples of 2^-8 in [-2, 2]: every partial sum is exact in float32.
    x = torch.randn(T, generator=gen, device=device).mul_(256.0).round_().clamp_(-512, 512)
    x = x.div_(256.0)
    # One segment (at a random place) holds an eighth of all elements; the others split the
    # rest at uniform random cut points; every 16th cut repeats the one before (empty).
    big = T // 8
    cuts = torch.randint(0, T - big + 1, (max(B - 2, 0),), generator=gen, device=device)
    cuts = torch.sort(cuts).values
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


def _segmented(x: torch.Tensor, starts_of: torch.Tensor) -> torch.Tensor:
    c = torch.zeros(x.shape[0] + 1, dtype=torch.float64, device=x.device)
    c[1:] = torch.cumsum(x.double(), 0)
    return c[1:] - c[starts_of]


def segment_starts(offsets: torch.Tensor, T: int) -> torch.Tensor:
    """For every position, the start of its segment."""
    o = offsets.long()
    seg = torch.bucketize(torch.arange(T, device=o.device), o[1:], right=True)
    return o[seg]


def reference(x: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    return _segmented(x, segment_starts(offsets, x.shape[0])).to(x.dtype)


def exercised(config: dict, x: torch.Tensor, offsets: torch.Tensor) -> dict:
    """The description's rules, seen in these inputs."""
    lengths = offsets[1:] - offsets[:-1]
    return {"empty segments": bool((lengths == 0).any()),
            "a segment of an eighth of all elements": bool((lengths >= x.shape[0] // 8).any())}
