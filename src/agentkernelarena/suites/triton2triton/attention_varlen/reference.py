"""Reference and inputs for causal attention over packed variable-length sequences."""

import torch


def _lengths(T: int, B: int, MAXL: int, gen: torch.Generator, device: str) -> torch.Tensor:
    """B lengths summing to T, the largest exactly MAXL (at a random place), the others spread
    around their mean (T - MAXL) / (B - 1) by up to 90% each way."""
    if B == 1:
        return torch.tensor([T], dtype=torch.int64, device=device)
    rest = T - MAXL
    avg = rest / (B - 1)
    assert 20 <= avg and 1.9 * avg <= MAXL - 1, (T, B, MAXL)
    u = torch.rand(B - 1, generator=gen, device=device, dtype=torch.float64).mul_(2).sub_(1)
    others = (avg * (1.0 + 0.9 * (u - u.mean()))).round().to(torch.int64)
    others = others.clamp(min=2)
    diff = rest - int(others.sum())
    step = 1 if diff > 0 else -1
    i = 0
    while diff != 0:
        j = i % (B - 1)
        if 2 <= int(others[j]) + step <= MAXL:
            others[j] += step
            diff -= step
        i += 1
    lengths = torch.cat((others, torch.tensor([MAXL], dtype=torch.int64, device=device)))
    order = torch.randperm(B, generator=gen, device=device)
    return lengths[order]


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    T, B, MAXL, H, D = config["T"], config["B"], config["MAXL"], config["H"], config["D"]
    gen = torch.Generator(device=device).manual_seed(seed)
    lengths = _lengths(T, B, MAXL, gen, device)
    cu = torch.zeros(B + 1, dtype=torch.int32, device=device)
    cu[1:] = lengths.cumsum(0).to(torch.int32)
    # Logits with a standard deviation of about 2: weights neither uniform nor one-hot.
    q = torch.randn(T, H, D, generator=gen, device=device).mul_(1.4).to(dtype)
    k = torch.randn(T, H, D, generator=gen, device=device).mul_(1.4).to(dtype)
    v = torch.randn(T, H, D, generator=gen, device=device).to(dtype)
    return (q, k, v, cu, MAXL)


def _attend(q, k, v, causal):
    qs, ks, vs = q.transpose(0, 1), k.transpose(0, 1), v.transpose(0, 1)
    s = (qs @ ks.transpose(-2, -1)) * q.shape[-1] ** -0.5
    if causal:
        L = q.shape[0]
        mask = torch.ones(L, L, dtype=torch.bool, device=q.device).tril()
        s = s.masked_fill(~mask, float("-inf"))
    return (torch.softmax(s, dim=-1) @ vs).transpose(0, 1)


def reference(q, k, v, cu_seqlens, max_seqlen):
    out = torch.empty_like(q)
    bounds = cu_seqlens.tolist()
    for s, e in zip(bounds[:-1], bounds[1:], strict=True):
        out[s:e] = _attend(q[s:e], k[s:e], v[s:e], True)
    return out


def exercised(config: dict, q, k, v, cu_seqlens, max_seqlen) -> dict:
    lengths = (cu_seqlens[1:] - cu_seqlens[:-1]).tolist()
    return {
        "sequence lengths differ": len(set(lengths)) > 1,
        "a sequence length is not a multiple of 16": any(n % 16 for n in lengths),
        "max_seqlen is the longest length": max(lengths) == max_seqlen,
        "a sequence starts at an offset that is not a multiple of 16":
            any(int(c) % 16 for c in cu_seqlens[1:-1].tolist()),
    }
