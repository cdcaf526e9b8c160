"""Known-wrong variants of the selective state update: y read from the state before the
update, the dt bias added after the softplus, and the skip term Dskip * x left out."""

import torch


def _step(x, dt, dt_bias, A, Bm, Cm, Dskip, state, *, old=False, late_bias=False, skip=True):
    acc = state.dtype
    if late_bias:
        delta = torch.nn.functional.softplus(dt.to(acc), threshold=1e9) + dt_bias[None]
    else:
        delta = torch.nn.functional.softplus(dt.to(acc) + dt_bias[None], threshold=1e9)
    h = (torch.exp(delta[..., None] * A[None]) * state
         + delta[..., None] * Bm[:, None, :].to(acc) * x[..., None].to(acc))
    y = ((state if old else h) * Cm[:, None, :].to(acc)).sum(-1)
    if skip:
        y = y + Dskip[None] * x.to(acc)
    return (y.to(x.dtype), h)


def y_from_old_state(*args):
    return _step(*args, old=True)


def bias_after_softplus(*args):
    return _step(*args, late_bias=True)


def no_skip(*args):
    return _step(*args, skip=False)
