"""Reference and inputs for per-head q/k RMSNorm followed by NeoX rotary embedding."""

import torch

EPS = 1e-6


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    T, HQ, HKV, D, MAXPOS = (config[k] for k in ("T", "HQ", "HKV", "D", "MAXPOS"))
    gen = torch.Generator(device=device).manual_seed(seed)
    # Heads with different scales; every 16th (token, head) row is tiny (mean square near eps).
    q = torch.randn(T, HQ, D, generator=gen, device=device)
    k = torch.randn(T, HKV, D, generator=gen, device=device)
    for x in (q, k):
        scale = torch.rand(T, x.shape[1], 1, generator=gen, device=device).mul_(3.0).add_(0.25)
        rows = torch.arange(T * x.shape[1], device=device).view(T, x.shape[1], 1)
        x.mul_(torch.where(rows % 16 == 5, torch.full_like(scale, 1e-3), scale))
    q_weight = torch.randn(D, generator=gen, device=device).mul_(0.3).add_(1.0).to(dtype)
    k_weight = torch.randn(D, generator=gen, device=device).mul_(0.3).add_(1.0).to(dtype)
    # Positions of a batch of ragged requests: not sorted, repeated, anywhere in the cache.
    positions = torch.randint(0, MAXPOS, (T,), generator=gen, device=device, dtype=torch.int64)
    inv_freq = 1.0 / (10000.0 ** (torch.arange(0, D, 2, device=device, dtype=torch.float64) / D))
    angles = torch.arange(MAXPOS, device=device, dtype=torch.float64)[:, None] * inv_freq[None, :]
    cos_sin = torch.cat([angles.cos(), angles.sin()], dim=-1).to(torch.float32)
    return (q.to(dtype), k.to(dtype), q_weight, k_weight, cos_sin, positions)


def rms_norm(x: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    return x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + EPS) * weight


def rotate(x: torch.Tensor, cos_sin: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
    half = x.shape[-1] // 2
    cs = cos_sin[positions]
    cos, sin = cs[:, None, :half], cs[:, None, half:]
    x1, x2 = x[..., :half], x[..., half:]
    return torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)


def reference(q, k, q_weight, k_weight, cos_sin, positions):
    return (rotate(rms_norm(q, q_weight), cos_sin, positions).to(q.dtype),
            rotate(rms_norm(k, k_weight), cos_sin, positions).to(k.dtype))


def exercised(config, q, k, q_weight, k_weight, cos_sin, positions) -> dict:
    ms = q.float().pow(2).mean(dim=-1)
    return {"a head with mean square near eps": bool((ms < 100 * EPS).any()),
            "positions unsorted": bool((positions[1:] < positions[:-1]).any())}
