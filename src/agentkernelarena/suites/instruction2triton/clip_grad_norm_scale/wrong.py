"""Known-wrong versions of clip_grad_norm_scale that the task's comparison must reject."""

import torch


def always_scaled(g, max_norm):
    return g * (max_norm / (torch.sqrt((g * g).sum()) + 1e-6))


def never_scaled(g, max_norm):
    return g.clone()


def squared_norm(g, max_norm):
    return g * torch.clamp(max_norm / ((g * g).sum() + 1e-6), max=1.0)
