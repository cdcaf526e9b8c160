"""Known-wrong variants of reflection padding: replicate padding (the edge element repeated
outward), and symmetric padding (the mirror placed between the edge and the pad, so column -1
reads column 0: an off-by-one in the reflection)."""

import torch


def replicate_padding(x, pl, pr, pt, pb):
    return torch.nn.functional.pad(x, (pl, pr, pt, pb), mode="replicate")


def _symmetric_index(n: int, before: int, after: int, device) -> torch.Tensor:
    i = torch.arange(-before, n + after, device=device)
    i = torch.where(i < 0, -i - 1, i)
    return torch.where(i >= n, 2 * n - 1 - i, i)


def symmetric_padding(x, pl, pr, pt, pb):
    H, W = x.shape[-2:]
    rows = _symmetric_index(H, pt, pb, x.device)
    cols = _symmetric_index(W, pl, pr, x.device)
    return x[..., rows[:, None], cols[None, :]].contiguous()
