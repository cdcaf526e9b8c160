"""Known-wrong versions of fake_quant_grid that the task's comparison must reject."""

import torch


def half_away_from_zero(x, step, qmin, qmax):
    v = x / step
    return torch.clamp(torch.sign(v) * torch.floor(v.abs() + 0.5), qmin, qmax) * step


def half_up(x, step, qmin, qmax):
    return torch.clamp(torch.floor(x / step + 0.5), qmin, qmax) * step


def truncation(x, step, qmin, qmax):
    return torch.clamp(torch.trunc(x / step), qmin, qmax) * step


def no_clamp(x, step, qmin, qmax):
    return torch.round(x / step) * step


def symmetric_clamp(x, step, qmin, qmax):
    return torch.clamp(torch.round(x / step), -qmax, qmax) * step
