"""Known-wrong variants `aka tasks check` must see rejected: batch norm with the batch's own
statistics (training mode), the ReLU left out, the ReLU applied before the batch norm, the
running variance used as the standard deviation, and a flipped filter (a true convolution
instead of torch's cross-correlation)."""

import torch
import torch.nn.functional as F

EPS = 1e-5


def batch_statistics(x, w, gamma, beta, running_mean, running_var):
    y = F.conv2d(x, w, padding=1)
    y = F.batch_norm(y, None, None, gamma, beta, training=True, eps=EPS)
    return torch.relu(y)


def no_relu(x, w, gamma, beta, running_mean, running_var):
    y = F.conv2d(x, w, padding=1)
    return F.batch_norm(y, running_mean, running_var, gamma, beta, training=False, eps=EPS)


def relu_before_bn(x, w, gamma, beta, running_mean, running_var):
    y = torch.relu(F.conv2d(x, w, padding=1))
    return F.batch_norm(y, running_mean, running_var, gamma, beta, training=False, eps=EPS)


def variance_as_std(x, w, gamma, beta, running_mean, running_var):
    y = F.conv2d(x, w, padding=1)
    scale = (gamma / (running_var + EPS))[None, :, None, None]
    return torch.relu((y - running_mean[None, :, None, None]) * scale
                      + beta[None, :, None, None])


def flipped_filter(x, w, gamma, beta, running_mean, running_var):
    y = F.conv2d(x, w.flip(-1, -2), padding=1)
    y = F.batch_norm(y, running_mean, running_var, gamma, beta, training=False, eps=EPS)
    return torch.relu(y)
