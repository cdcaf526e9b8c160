"""Known-wrong LoRA shrink variants `aka tasks check` must see rejected."""

import torch


def _shrink(x, lora_a, seg_starts, ids, scale):
    T, R = x.shape[0], lora_a.shape[1]
    out = torch.zeros(T, R, dtype=torch.float64, device=x.device)
    starts = seg_starts.tolist()
    for s, a in enumerate(ids):
        lo, hi = starts[s], starts[s + 1]
        if a is not None and hi > lo:
            out[lo:hi] = scale * (x[lo:hi].double() @ lora_a[a].double().T)
    return out.float()


def minus_one_wraps(x, lora_a, seg_starts, adapter_ids, scale):
    # adapter -1 indexed Python-style: the last adapter instead of none.
    return _shrink(x, lora_a, seg_starts, adapter_ids.tolist(), scale)


def no_scale(x, lora_a, seg_starts, adapter_ids, scale):
    ids = [a if a >= 0 else None for a in adapter_ids.tolist()]
    return _shrink(x, lora_a, seg_starts, ids, 1.0)


def first_adapter_only(x, lora_a, seg_starts, adapter_ids, scale):
    # Every segment with an adapter given the first segment's adapter.
    first = int(adapter_ids[0])
    ids = [first if a >= 0 else None for a in adapter_ids.tolist()]
    return _shrink(x, lora_a, seg_starts, ids, scale)
