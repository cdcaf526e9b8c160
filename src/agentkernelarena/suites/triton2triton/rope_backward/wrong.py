"""Known-wrong variants of the RoPE backward: the forward rotation applied to the gradient
instead of its inverse, and GPT-J interleaved pairs instead of rotate-half."""

import torch


def forward_rotation(dy, cos_sin, positions):
    half = dy.shape[-1] // 2
    cs = cos_sin[positions]
    c, s = cs[:, None, :half], cs[:, None, half:]
    dy1, dy2 = dy[..., :half], dy[..., half:]
    return torch.cat([dy1 * c - dy2 * s, dy2 * c + dy1 * s], dim=-1).to(dy.dtype)


def gptj_pairs(dy, cos_sin, positions):
    half = dy.shape[-1] // 2
    cs = cos_sin[positions]
    c, s = cs[:, None, :half], cs[:, None, half:]
    e, o = dy[..., 0::2], dy[..., 1::2]
    return torch.stack([e * c + o * s, o * c - e * s], -1).flatten(-2).to(dy.dtype)
