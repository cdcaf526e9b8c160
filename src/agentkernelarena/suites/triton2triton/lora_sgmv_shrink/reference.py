"""Reference and inputs for the multi-adapter LoRA shrink (SGMV)."""

import torch

SCALE = 0.5


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    T, K, R, NA, S = config["T"], config["K"], config["R"], config["NA"], config["S"]
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(T, K, generator=gen, device=device).to(dtype)
    a = torch.randn(NA, R, K, generator=gen, device=device).mul_(K ** -0.5).to(dtype)
    cuts = torch.sort(torch.randint(0, T + 1, (S - 1,), generator=gen, device=device)).values
    cuts[2::6] = cuts[1::6][:cuts[2::6].numel()].clone()  # every 6th segment empty
    starts = torch.zeros(S + 1, dtype=torch.int64, device=device)
    starts[1:S] = cuts
    starts[S] = T
    ids = torch.randint(0, NA, (S,), generator=gen, device=device)
    ids[3::5] = -1  # every 5th segment (from the 4th) uses no adapter
    ids[0] = NA - 1
    return (x, a, starts.to(torch.int32), ids.to(torch.int32), SCALE)


def reference(x, lora_a, seg_starts, adapter_ids, scale: float) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    T, R = x.shape[0], lora_a.shape[1]
    out = torch.zeros(T, R, dtype=acc, device=x.device)
    starts = seg_starts.tolist()
    for s, a in enumerate(adapter_ids.tolist()):
        lo, hi = starts[s], starts[s + 1]
        if a >= 0 and hi > lo:
            out[lo:hi] = scale * (x[lo:hi].to(acc) @ lora_a[a].to(acc).T)
    return out.float()


def exercised(config: dict, x, lora_a, seg_starts, adapter_ids, scale) -> dict:
    """The description's rules, seen in these inputs."""
    lengths = seg_starts[1:] - seg_starts[:-1]
    return {"segments without an adapter": bool(((adapter_ids < 0) & (lengths > 0)).any()),
            "empty segments": bool((lengths == 0).any()),
            "several adapters used": bool(adapter_ids[lengths > 0].unique().numel() > 1)}
