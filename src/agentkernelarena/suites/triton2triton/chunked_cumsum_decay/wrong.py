"""Known-wrong variants of the chunk-local cumsum: no reset (a cumsum over the whole
sequence), chunk boundaries off by one (reset at t % 64 == 1), and an exclusive instead of an
inclusive sum."""

import torch

CHUNK = 64


def no_reset(g):
    return g.cumsum(dim=-1)


def _chunked(g, offset):
    B, H, T = g.shape
    # Chunks start at t = offset + 64 j (and t = 0).
    front = torch.nn.functional.pad(g, (CHUNK - offset, 0))
    n = -(-front.shape[-1] // CHUNK)
    padded = torch.nn.functional.pad(front, (0, n * CHUNK - front.shape[-1]))
    out = padded.view(B, H, n, CHUNK).cumsum(dim=-1).view(B, H, n * CHUNK)
    return out[..., CHUNK - offset: CHUNK - offset + T].contiguous()


def reset_off_by_one(g):
    return _chunked(g, 1)


def exclusive(g):
    return _chunked(g, 0) - g
