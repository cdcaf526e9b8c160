"""Known-wrong variant of im2col: the rows ordered (kh, kw, c), the channels-last convention,
instead of unfold's (c, kh, kw)."""

import torch


def channels_last_rows(x: torch.Tensor, k: int, stride: int, padding: int) -> torch.Tensor:
    u = torch.nn.functional.unfold(x, k, padding=padding, stride=stride)
    N, C = x.shape[:2]
    L = u.shape[-1]
    return u.reshape(N, C, k * k, L).transpose(1, 2).reshape(N, k * k * C, L).contiguous()
