"""Known-wrong versions of diag_extract_add that the task's comparison must reject."""

import torch


def anti_diagonal(x, d):
    return x + torch.flip(torch.diag(d), dims=[1])


def row_broadcast(x, d):
    return x + d[None, :]


def diagonal_replaced(x, d):
    out = x.clone()
    out.diagonal().copy_(d)
    return out


def not_added(x, d):
    return x.clone()
