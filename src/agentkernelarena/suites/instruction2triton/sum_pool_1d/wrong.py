"""Known-wrong versions of sum_pool_1d that the task's comparison must reject."""

import torch


def reference(x, W):
    M, L = x.shape
    J = -(-L // W)
    return torch.nn.functional.pad(x, (0, J * W - L)).reshape(M, J, W).sum(dim=-1)


def mean_pool(x, W):
    return reference(x, W) / W


def partial_window_dropped(x, W):
    out = reference(x, W)
    if x.shape[1] % W:
        out[:, -1] = 0
    return out


def partial_window_mean(x, W):
    # The partial window averaged over the elements it has instead of summed.
    out = reference(x, W)
    rest = x.shape[1] % W
    if rest:
        out[:, -1] = out[:, -1] / rest
    return out
