"""Known-wrong WKV variants `aka tasks check` must see rejected."""

import torch


def _stable(w, u, k, v):
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


def unstable_float32(time_decay, time_first, k, v):
    # The textbook form without the max-shift, in float32: e^k overflows.
    w = -torch.exp(time_decay.float())
    u, kf, vf = time_first.float(), k.float(), v.float()
    B, T, C = k.shape
    a = torch.zeros(B, C)
    b = torch.zeros(B, C)
    y = torch.empty(B, T, C)
    for t in range(T):
        e = torch.exp(u + kf[:, t])
        y[:, t] = (a + e * vf[:, t]) / (b + e)
        a = torch.exp(w) * a + torch.exp(kf[:, t]) * vf[:, t]
        b = torch.exp(w) * b + torch.exp(kf[:, t])
    return y.to(k.dtype)


def no_bonus(time_decay, time_first, k, v):
    # The current token weighted like the state (u = 0) instead of by e^u.
    w = -torch.exp(time_decay.double())
    return _stable(w, torch.zeros_like(w), k.double(), v.double()).to(k.dtype)


def decay_not_exponentiated(time_decay, time_first, k, v):
    # time_decay used as w directly instead of w = -exp(time_decay).
    w = time_decay.double().clamp(max=-1e-3)
    return _stable(w, time_first.double(), k.double(), v.double()).to(k.dtype)
