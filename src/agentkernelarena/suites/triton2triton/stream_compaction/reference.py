"""Reference and inputs for stream compaction (x[mask], padded to a fixed length)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    N, keep = config["N"], config["keep"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(N, generator=gen, device=device)
    mask = torch.rand(N, generator=gen, device=device) < keep
    # One run of dropped and one run of kept elements, each 5% to 20% of the vector, at random
    # places: whole blocks with nothing (or everything) to keep.
    for value in (False, True):
        lo, hi = max(1, N // 20), max(2, N // 5)
        span = int(torch.randint(lo, hi, (1,), generator=gen, device=device))
        at = int(torch.randint(0, N - span + 1, (1,), generator=gen, device=device))
        mask[at:at + span] = value
    return (x, mask)


def reference(x: torch.Tensor, mask: torch.Tensor):
    kept = x[mask]
    out = torch.zeros_like(x)
    out[: kept.shape[0]] = kept
    count = torch.tensor([kept.shape[0]], dtype=torch.int64, device=x.device)
    return (out, count)


def min_bytes(config: dict, x: torch.Tensor, mask: torch.Tensor) -> int:
    """What a correct kernel must move: the mask, the kept elements of x, out and the count."""
    return int(mask.sum()) * x.element_size() + mask.numel() + x.numel() * x.element_size() + 8


def exercised(config: dict, x: torch.Tensor, mask: torch.Tensor) -> dict:
    """The description's rules, seen in these inputs."""
    kept = int(mask.sum())
    return {"some elements dropped": kept < mask.numel(), "some elements kept": kept > 0}
