"""Reference and inputs for the sum-mode embedding-bag task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, P, V, D = config["B"], config["P"], config["V"], config["D"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Scaled by P^-1/2 so that the bag sums stay of order one whatever the bag size.
    weight = torch.randn(V, D, generator=gen, device=device).mul_(P**-0.5)
    # Bag lengths in [0, 2P] (some bags empty) that add up to exactly B * P, so that every seed
    # gives the same shapes (the timer refills one set of buffers): pairs P + r and P - r,
    # shuffled. Offsets are the lengths' exclusive prefix sum.
    r = torch.randint(-P, P + 1, (B // 2,), generator=gen, device=device)
    odd = torch.full((B % 2,), P, device=device, dtype=torch.int64)
    lengths = torch.cat((P + r, P - r, odd))
    lengths = lengths[torch.randperm(B, generator=gen, device=device)]
    offsets = torch.cumsum(lengths, 0) - lengths
    indices = torch.randint(0, V, (B * P,), generator=gen, device=device)
    return (weight.to(dtype), indices, offsets)


def reference(weight: torch.Tensor, indices: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.embedding_bag(indices, weight, offsets, mode="sum")


def exercised(config: dict, weight: torch.Tensor, indices: torch.Tensor,
              offsets: torch.Tensor) -> dict:
    """The description's rules, seen in these inputs."""
    lengths = torch.diff(offsets, append=offsets.new_tensor([indices.numel()]))
    return {"width not a multiple of 8": config["D"] % 8 != 0,
            "an empty bag": bool((lengths == 0).any())}
