"""Known-wrong repeat_kv variants `aka tasks check` must see rejected."""

import torch


def tiled_heads(kv: torch.Tensor, rep: int) -> torch.Tensor:
    # Head h of the output is kv head h % HKV (torch.repeat) instead of h // rep.
    return kv.repeat(1, rep, 1, 1)
