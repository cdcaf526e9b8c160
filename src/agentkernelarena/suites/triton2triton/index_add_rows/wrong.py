"""Known-wrong index_add variants `aka tasks check` must see rejected."""

import torch


def last_write_wins(base: torch.Tensor, index: torch.Tensor, src: torch.Tensor) -> torch.Tensor:
    # Repeated destinations keep only the last source row (a plain store or a non-accumulating
    # index_put instead of an atomic add).
    L = index.shape[0]
    last = torch.full((base.shape[0],), -1, dtype=torch.int64, device=index.device)
    last.scatter_reduce_(0, index, torch.arange(L, device=index.device), reduce="amax")
    hit = last >= 0
    out = base.clone()
    out[hit] = base[hit] + src[last[hit]]
    return out


def base_left_out(base: torch.Tensor, index: torch.Tensor, src: torch.Tensor) -> torch.Tensor:
    return torch.zeros_like(base).index_add(0, index, src)
