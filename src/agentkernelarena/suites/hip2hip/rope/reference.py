"""Reference and inputs for the rotary position embedding task (rotate-half, cos/sin tables)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    T, H, D = config["T"], config["H"], config["D"]
    q = torch.randn(T, H, D, generator=gen, device=device)
    # Positions of a chunk somewhere inside a long sequence; the usual base-10000 frequencies.
    start = int(torch.randint(0, 100_000, (1,), generator=gen, device=device))
    pos = torch.arange(start, start + T, device=device, dtype=torch.float64)
    inv_freq = 10000.0 ** (-torch.arange(0, D, 2, device=device, dtype=torch.float64) / D)
    angles = pos[:, None] * inv_freq[None, :]
    return (q.to(dtype), angles.cos().float(), angles.sin().float())


def reference(q: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if q.dtype == torch.float64 else torch.float32
    x1, x2 = q.to(acc).chunk(2, dim=-1)
    c = cos.to(acc)[:, None, :]
    s = sin.to(acc)[:, None, :]
    return torch.cat((x1 * c - x2 * s, x2 * c + x1 * s), dim=-1).to(q.dtype)


def exercised(config: dict, *inputs) -> dict:
    """The description's rule, seen in this configuration (`aka tasks check`)."""
    return {"half the head dimension not a multiple of 8": (config["D"] // 2) % 8 != 0}
