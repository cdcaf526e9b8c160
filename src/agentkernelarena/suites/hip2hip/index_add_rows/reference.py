"""Reference and inputs for the row index_add task: base.index_add(0, index, src)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    gen = torch.Generator(device=device).manual_seed(seed)
    M, L, D = config["M"], config["L"], config["D"]
    # Most rows picked uniformly, one in eight among 8 hot rows (repeated destinations, as in
    # the gradients of an embedding table or a scatter of messages to popular nodes).
    index = torch.randint(0, M, (L,), generator=gen, device=device)
    hot = torch.randint(0, M, (8,), generator=gen, device=device)
    pick = torch.randint(0, 8, (L,), generator=gen, device=device)
    heavy = torch.rand(L, generator=gen, device=device) < 0.125
    index = torch.where(heavy, hot[pick], index)
    # Multiples of 1/4 of at most 8 in magnitude: every partial sum stays exact in float32, so
    # any order of accumulation gives the reference's result.
    src = torch.randint(-32, 33, (L, D), generator=gen, device=device).float().div_(4)
    base = torch.randint(-400, 401, (M, D), generator=gen, device=device).float().div_(4)
    return (base, index, src)


def reference(base: torch.Tensor, index: torch.Tensor, src: torch.Tensor) -> torch.Tensor:
    return base.index_add(0, index, src)


def exercised(config: dict, *inputs) -> dict:
    """The description's rules, seen in this configuration (`aka tasks check`)."""
    _, index, _ = inputs
    return {
        "repeated indices": index.unique().numel() < index.numel(),
        "D not a multiple of 4": config["D"] % 4 != 0,
    }
