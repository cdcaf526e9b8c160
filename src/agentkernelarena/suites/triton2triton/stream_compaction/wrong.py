"""Known-wrong stream compaction variants `aka tasks check` must see rejected."""

import torch


def _pad(kept: torch.Tensor, x: torch.Tensor):
    out = torch.zeros_like(x)
    out[: kept.shape[0]] = kept
    return (out, torch.tensor([kept.shape[0]], dtype=torch.int64, device=x.device))


def unstable_within_blocks(x: torch.Tensor, mask: torch.Tensor):
    # Kept elements grouped by 256-element block in order, but reversed inside each block (what
    # a scatter by a reversed or non-deterministic in-block rank gives).
    n = x.shape[0]
    pieces = [x[s:s + 256][mask[s:s + 256]].flip(0) for s in range(0, n, 256)]
    return _pad(torch.cat(pieces), x)


def tail_not_zeroed(x: torch.Tensor, mask: torch.Tensor):
    out, count = _pad(x[mask], x)
    k = int(count[0])
    out[k:] = x[k:]
    return (out, count)
