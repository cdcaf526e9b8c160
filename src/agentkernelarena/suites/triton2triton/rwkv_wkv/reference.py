"""Reference and inputs for the RWKV-4 WKV recurrence (forward)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    B, T, C = config["B"], config["T"], config["C"]
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    # Decay rates from fast (w = -e) to very slow (w = -0.007), bonus around 0.
    time_decay = torch.rand(C, generator=gen, device=device).mul_(6.0).sub_(5.0)
    time_first = torch.randn(C, generator=gen, device=device).mul_(0.5)
    k = torch.randn(B, T, C, generator=gen, device=device)
    # 2% of the keys near 90: e^k overflows float32 (the recurrence must stay max-shifted).
    big = torch.rand(B, T, C, generator=gen, device=device) < 0.02
    k = torch.where(big, k + 90.0, k)
    v = torch.randn(B, T, C, generator=gen, device=device)
    return (time_decay, time_first, k.to(dtype), v.to(dtype))


def wkv(w: torch.Tensor, u: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    """The stable recurrence, vectorized over (B, C), in the dtype of k."""
    B, T, C = k.shape
    aa = torch.zeros(B, C, dtype=k.dtype, device=k.device)
    bb = torch.zeros_like(aa)
    pp = torch.full_like(aa, -1e38)
    y = torch.empty_like(k)
    for t in range(T):
        kk, vv = k[:, t], v[:, t]
        ww = u + kk
        p = torch.maximum(pp, ww)
        e1, e2 = torch.exp(pp - p), torch.exp(ww - p)
        y[:, t] = (e1 * aa + e2 * vv) / (e1 * bb + e2)
        ww = w + pp
        p = torch.maximum(ww, kk)
        e1, e2 = torch.exp(ww - p), torch.exp(kk - p)
        aa, bb, pp = e1 * aa + e2 * vv, e1 * bb + e2, p
    return y


def reference(time_decay, time_first, k, v) -> torch.Tensor:
    acc = torch.float64 if k.dtype == torch.float64 else torch.float32
    w = -torch.exp(time_decay.to(acc))
    y = wkv(w, time_first.to(acc), k.to(acc), v.to(acc))
    return y.to(k.dtype)
