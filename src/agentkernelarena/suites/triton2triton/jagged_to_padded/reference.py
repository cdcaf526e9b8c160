"""Reference and inputs for jagged (values + offsets) to padded dense."""

import torch

PAD = -1.5


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    B, L, D, T = config["B"], config["L"], config["D"], config["T"]
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    values = torch.randn(T, D, generator=gen, device=device).to(dtype)
    # Lengths from uniform random cut points (total T): many shorter than L, some longer
    # (truncated); every 8th cut repeats the one before it (an empty sequence).
    cuts = torch.sort(torch.randint(0, T + 1, (B - 1,), generator=gen, device=device)).values
    cuts[1::8] = cuts[0::8][:cuts[1::8].numel()].clone()
    offsets = torch.zeros(B + 1, dtype=torch.int64, device=device)
    offsets[1:B] = cuts
    offsets[B] = T
    return (values, offsets.to(torch.int32), L, PAD)


def reference(values: torch.Tensor, offsets: torch.Tensor, max_len: int,
              pad_value: float) -> torch.Tensor:
    B, D = offsets.shape[0] - 1, values.shape[1]
    o = offsets.long()
    lengths = o[1:] - o[:-1]
    t = torch.arange(max_len, device=values.device)
    keep = t[None, :] < lengths[:, None]
    src = (o[:-1, None] + t[None, :]).clamp(max=max(values.shape[0] - 1, 0))
    out = values[src.reshape(-1)].reshape(B, max_len, D)
    return torch.where(keep[:, :, None], out, torch.full_like(out, pad_value))


def exercised(config: dict, values, offsets, max_len, pad_value) -> dict:
    """The description's rules, seen in these inputs."""
    lengths = offsets[1:] - offsets[:-1]
    return {"sequences longer than max_len": bool((lengths > max_len).any()),
            "sequences shorter than max_len": bool((lengths < max_len).any()),
            "empty sequences": bool((lengths == 0).any())}
