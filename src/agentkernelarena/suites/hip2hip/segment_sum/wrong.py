"""Known-wrong variants of the segment sum: the mean instead of the sum, and each segment's
end row included (offsets read as inclusive bounds)."""

import torch


def segment_mean(x, offsets):
    S = offsets.shape[0] - 1
    lengths = offsets[1:] - offsets[:-1]
    seg = torch.repeat_interleave(torch.arange(S), lengths)
    out = torch.zeros(S, x.shape[1], dtype=x.dtype).index_add_(0, seg, x)
    return out / lengths.clamp(min=1).to(x.dtype)[:, None]


def inclusive_end(x, offsets):
    S = offsets.shape[0] - 1
    out = torch.zeros(S, x.shape[1], dtype=x.dtype)
    for s in range(S):
        lo, hi = int(offsets[s]), min(int(offsets[s + 1]) + 1, x.shape[0])
        out[s] = x[lo:hi].sum(0)
    return out
