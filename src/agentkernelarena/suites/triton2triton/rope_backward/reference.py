"""Reference and inputs for the backward of NeoX-style rotary position embedding."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    T, H, D, MAXPOS = (config[k] for k in ("T", "H", "D", "MAXPOS"))
    gen = torch.Generator(device=device).manual_seed(seed)
    dy = torch.randn(T, H, D, generator=gen, device=device).to(dtype)
    positions = torch.randint(0, MAXPOS, (T,), generator=gen, device=device, dtype=torch.int64)
    inv_freq = 1.0 / (10000.0 ** (torch.arange(0, D, 2, device=device, dtype=torch.float64) / D))
    angles = torch.arange(MAXPOS, device=device, dtype=torch.float64)[:, None] * inv_freq[None, :]
    cos_sin = torch.cat([angles.cos(), angles.sin()], dim=-1).to(torch.float32)
    return (dy, cos_sin, positions)


def reference(dy, cos_sin, positions):
    half = dy.shape[-1] // 2
    cs = cos_sin[positions]
    c, s = cs[:, None, :half], cs[:, None, half:]
    dy1, dy2 = dy[..., :half], dy[..., half:]
    return torch.cat([dy1 * c + dy2 * s, dy2 * c - dy1 * s], dim=-1).to(dy.dtype)
