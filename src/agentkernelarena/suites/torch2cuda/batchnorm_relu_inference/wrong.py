"""Known-wrong variants `aka tasks check` must see rejected: training-mode BatchNorm (the
batch's own statistics instead of the running ones), and the variance used where its square
root belongs."""

import torch
import torch.nn.functional as F

EPS = 1e-5


def batch_statistics(x, weight, bias, running_mean, running_var):
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    y = F.batch_norm(x.to(acc), None, None, weight.to(acc), bias.to(acc), training=True, eps=EPS)
    return torch.relu(y).to(x.dtype)


def variance_not_rooted(x, weight, bias, running_mean, running_var):
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    def per_channel(t):
        return t.to(acc)[:, None, None]
    y = (x.to(acc) - per_channel(running_mean)) / (per_channel(running_var) + EPS)
    return torch.relu(y * per_channel(weight) + per_channel(bias)).to(x.dtype)
