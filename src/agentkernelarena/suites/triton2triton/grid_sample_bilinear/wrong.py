"""Known-wrong variants of bilinear grid sampling."""

import torch


def align_corners(inp, grid):
    return torch.nn.functional.grid_sample(inp, grid, mode="bilinear", padding_mode="zeros",
                                           align_corners=True)


def border_padding(inp, grid):
    return torch.nn.functional.grid_sample(inp, grid, mode="bilinear", padding_mode="border",
                                           align_corners=False)
