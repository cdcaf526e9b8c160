"""Reference and inputs for rotary position embedding (NeoX style) of queries and keys."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    T, HQ, HKV, D, MAXPOS = (config[k] for k in ("T", "HQ", "HKV", "D", "MAXPOS"))
    gen = torch.Generator(device=device).manual_seed(seed)
    q = torch.randn(T, HQ, D, generator=gen, device=device).to(dtype)
    k = torch.randn(T, HKV, D, generator=gen, device=device).to(dtype)
    # Positions of a batch of ragged requests: not sorted, repeated, anywhere in the cache.
    positions = torch.randint(0, MAXPOS, (T,), generator=gen, device=device, dtype=torch.int64)
    inv_freq = 1.0 / (10000.0 ** (torch.arange(0, D, 2, device=device, dtype=torch.float64) / D))
    angles = torch.arange(MAXPOS, device=device, dtype=torch.float64)[:, None] * inv_freq[None, :]
    cos_sin = torch.cat([angles.cos(), angles.sin()], dim=-1).to(torch.float32)
    return (q, k, cos_sin, positions)


def _rotate(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    half = x.shape[-1] // 2
    x1, x2 = x[..., :half], x[..., half:]
    return torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)


def reference(q: torch.Tensor, k: torch.Tensor, cos_sin: torch.Tensor, positions: torch.Tensor):
    half = q.shape[-1] // 2
    cs = cos_sin[positions]
    cos, sin = cs[:, None, :half], cs[:, None, half:]
    return (_rotate(q, cos, sin).to(q.dtype), _rotate(k, cos, sin).to(k.dtype))
