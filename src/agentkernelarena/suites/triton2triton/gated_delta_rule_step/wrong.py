"""Known-wrong variants of the gated delta rule step: the delta taken from the state before
its decay, the output read from the state before the update, and the DK^-0.5 scale left out."""

import torch


def _step(q, k, v, alpha, beta, S, *, late_decay=False, early_out=False, scale=True):
    acc = S.dtype
    qf, kf, vf = q.to(acc), k.to(acc), v.to(acc)
    decayed = alpha[..., None, None] * S
    u = vf - torch.einsum("bhij,bhi->bhj", S if late_decay else decayed, kf)
    new = decayed + beta[..., None, None] * kf[..., :, None] * u[..., None, :]
    o = torch.einsum("bhij,bhi->bhj", decayed if early_out else new, qf)
    if scale:
        o = o * q.shape[-1] ** -0.5
    return (o.to(q.dtype), new)


def delta_before_decay(*args):
    return _step(*args, late_decay=True)


def output_before_update(*args):
    return _step(*args, early_out=True)


def no_output_scale(*args):
    return _step(*args, scale=False)
