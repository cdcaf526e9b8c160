"""Known-wrong variants `aka tasks check` must see rejected: the padding ignored (every key
attended), and one padding slot attended (kv_lens + 1, an off-by-one bound)."""

import torch


def _attend(q, k, v, lens):
    LK = k.shape[2]
    scores = (q @ k.transpose(-2, -1)) * q.shape[-1] ** -0.5
    pad = torch.arange(LK, device=q.device)[None, :] >= lens.to(q.device)[:, None]
    scores = scores.masked_fill(pad[:, None, None, :], float("-inf"))
    return torch.softmax(scores, dim=-1) @ v


def lengths_ignored(q, k, v, kv_lens):
    return _attend(q, k, v, torch.full_like(kv_lens, k.shape[2]))


def lengths_off_by_one(q, k, v, kv_lens):
    return _attend(q, k, v, (kv_lens + 1).clamp(max=k.shape[2]))
