"""Known-wrong jagged-to-padded variants `aka tasks check` must see rejected."""

import torch


def _padded(values, offsets, max_len, pad_value, tail):
    B, D = offsets.shape[0] - 1, values.shape[1]
    o = offsets.long()
    lengths = o[1:] - o[:-1]
    t = torch.arange(max_len, device=values.device)
    keep = t[None, :] < lengths[:, None]
    start = o[:-1] + (torch.clamp(lengths - max_len, min=0) if tail else 0)
    src = (start[:, None] + t[None, :]).clamp(max=max(values.shape[0] - 1, 0))
    out = values[src.reshape(-1)].reshape(B, max_len, D)
    return torch.where(keep[:, :, None], out, torch.full_like(out, pad_value))

def zero_padded(values, offsets, max_len, pad_value):
    # Padding left at zero instead of pad_value.
    return _padded(values, offsets, max_len, 0.0, False)

def keep_tail(values, offsets, max_len, pad_value):
    # Long sequences truncated to their last max_len rows instead of their first.
    return _padded(values, offsets, max_len, pad_value, True)
