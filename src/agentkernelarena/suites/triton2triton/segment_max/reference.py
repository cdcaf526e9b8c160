"""Reference and inputs for segment max over rows with sorted segment ids."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    T, S, D = config["T"], config["S"], config["D"]
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(T, D, generator=gen, device=device).to(dtype)
    # Segment boundaries at uniform random cut points (uneven lengths); every 8th boundary
    # repeats the one before (an empty segment) and every 8th, shifted by 4, is one row after
    # the one before (a single-row segment).
    cuts = torch.sort(torch.randint(0, T + 1, (S - 1,), generator=gen, device=device)).values
    cuts[1::8] = cuts[0::8][:cuts[1::8].numel()].clone()
    cuts[5::8] = torch.clamp(cuts[4::8][:cuts[5::8].numel()] + 1, max=T)
    cuts = torch.cummax(cuts, 0).values
    ids = torch.zeros(T, dtype=torch.int64, device=device)
    if S > 1:
        ids = torch.bucketize(torch.arange(T, device=device), cuts, right=True)
    return (x, ids.to(torch.int32), S)


def reference(x: torch.Tensor, seg_ids: torch.Tensor, num_segments: int) -> torch.Tensor:
    D = x.shape[1]
    out = torch.zeros(num_segments, D, dtype=x.dtype, device=x.device)
    index = seg_ids.long()[:, None].expand(-1, D)
    return out.scatter_reduce(0, index, x, reduce="amax", include_self=False)


def exercised(config: dict, x, seg_ids, num_segments) -> dict:
    """The description's rules, seen in these inputs."""
    counts = torch.bincount(seg_ids.long(), minlength=num_segments)
    best = reference(x.float(), seg_ids, num_segments)
    return {"empty segments": bool((counts == 0).any()),
            "single-row segments": bool((counts == 1).any()),
            "negative maxima": bool(((best < 0) & (counts[:, None] > 0)).any())}
