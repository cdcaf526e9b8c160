"""Known-wrong versions of reverse_rows that the task's comparison must reject."""

import torch


def identity(x):
    return x.clone()


def rows_reversed_too(x):
    # The whole matrix reversed as one flat vector (rows and columns both reversed).
    return torch.flip(x, dims=[0, 1])


def row_order_reversed(x):
    return torch.flip(x, dims=[0])
