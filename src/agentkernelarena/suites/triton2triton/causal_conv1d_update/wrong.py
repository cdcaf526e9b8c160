"""Known-wrong variants of the conv1d decode step: the filter taps applied newest first, the
state returned without rolling it, and x put at the front of the window instead of the back."""

import torch


def taps_reversed(x, conv_state, weight, bias):
    u = torch.cat([conv_state, x[..., None]], dim=-1)
    out = torch.nn.functional.silu((u * weight.flip(-1)[None]).sum(-1) + bias[None])
    return (out, u[..., 1:].clone())


def state_not_rolled(x, conv_state, weight, bias):
    u = torch.cat([conv_state, x[..., None]], dim=-1)
    out = torch.nn.functional.silu((u * weight[None]).sum(-1) + bias[None])
    return (out, conv_state.clone())


def x_prepended(x, conv_state, weight, bias):
    u = torch.cat([x[..., None], conv_state], dim=-1)
    out = torch.nn.functional.silu((u * weight[None]).sum(-1) + bias[None])
    return (out, u[..., :-1].clone())
