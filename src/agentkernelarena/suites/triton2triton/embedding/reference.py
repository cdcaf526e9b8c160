"""Reference and inputs for the embedding lookup task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    ids = torch.randint(
        0, config["V"], (config["T"],), generator=gen, device=device, dtype=torch.int64
    )
    weight = torch.randn(config["V"], config["D"], generator=gen, device=device).to(dtype)
    return (ids, weight)


def reference(ids: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.embedding(ids, weight)
