"""Reference and inputs for counting ids per bin (e.g. tokens routed to each expert)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    N, NBINS = config["N"], config["NBINS"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Skewed as router outputs are: 40% of the ids fall on 8 hot bins, the rest uniformly;
    # the first and the last bin always occur.
    hot = torch.randint(0, NBINS, (8,), generator=gen, device=device)
    ids = torch.randint(0, NBINS, (N,), generator=gen, device=device)
    pick = hot[torch.randint(0, 8, (N,), generator=gen, device=device)]
    ids = torch.where(torch.rand(N, generator=gen, device=device) < 0.4, pick, ids)
    ids[0], ids[-1] = 0, NBINS - 1
    return (ids.to(torch.int32), NBINS)


def reference(ids: torch.Tensor, nbins: int) -> torch.Tensor:
    return torch.bincount(ids.long(), minlength=nbins).to(torch.int32)
