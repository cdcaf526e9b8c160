"""Known-wrong variants `aka tasks check` must see rejected: eps left out, the RMS taken over
all heads of a token (a whole-hidden-size norm), the weight applied after the rotation, and
GPT-J interleaved pairs instead of rotate-half."""

import torch

EPS = 1e-6


def _rotate(x, cos_sin, positions):
    half = x.shape[-1] // 2
    cs = cos_sin[positions]
    cos, sin = cs[:, None, :half], cs[:, None, half:]
    x1, x2 = x[..., :half], x[..., half:]
    return torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)


def _rotate_gptj(x, cos_sin, positions):
    half = x.shape[-1] // 2
    cs = cos_sin[positions]
    cos, sin = cs[:, None, :half], cs[:, None, half:]
    x1, x2 = x[..., 0::2], x[..., 1::2]
    return torch.stack([x1 * cos - x2 * sin, x2 * cos + x1 * sin], -1).flatten(-2)


def _norm(x, w, eps=EPS):
    return x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + eps) * w


def no_eps(q, k, q_weight, k_weight, cos_sin, positions):
    return (_rotate(_norm(q, q_weight, 0.0), cos_sin, positions),
            _rotate(_norm(k, k_weight, 0.0), cos_sin, positions))


def norm_over_all_heads(q, k, q_weight, k_weight, cos_sin, positions):
    def norm(x, w):
        ms = x.pow(2).mean(dim=(-2, -1), keepdim=True)
        return x * torch.rsqrt(ms + EPS) * w
    return (_rotate(norm(q, q_weight), cos_sin, positions),
            _rotate(norm(k, k_weight), cos_sin, positions))


def weight_after_rope(q, k, q_weight, k_weight, cos_sin, positions):
    ones = torch.ones_like(q_weight)
    return (_rotate(_norm(q, ones), cos_sin, positions) * q_weight,
            _rotate(_norm(k, ones), cos_sin, positions) * k_weight)


def gptj_interleaved(q, k, q_weight, k_weight, cos_sin, positions):
    return (_rotate_gptj(_norm(q, q_weight), cos_sin, positions),
            _rotate_gptj(_norm(k, k_weight), cos_sin, positions))
