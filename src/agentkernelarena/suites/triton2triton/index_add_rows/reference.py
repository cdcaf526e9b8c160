"""Reference and inputs for the row index_add task (scatter-add of rows with repeats)."""

import torch


def _grid(x: torch.Tensor) -> torch.Tensor:
    return x.mul_(1.5).clamp_(-4.0, 4.0).mul_(1024.0).round_().div_(1024.0)


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    N, L, D = config["N"], config["L"], config["D"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Values are multiples of 2^-10 in [-4, 4]: every partial sum of these inputs is exact in
    # float32, so the order in which atomics land cannot change the result.
    base = _grid(torch.randn(N, D, generator=gen, device=device))
    src = _grid(torch.randn(L, D, generator=gen, device=device))
    # Skewed destinations, as gradients of embedding rows or messages to graph nodes are: a
    # quarter of the rows go to 16 hot destinations, the rest uniformly; the last source row goes
    # to the same destination as the first (a repeat in every input).
    hot = torch.randint(0, N, (16,), generator=gen, device=device)
    index = torch.randint(0, N, (L,), generator=gen, device=device)
    pick = hot[torch.randint(0, 16, (L,), generator=gen, device=device)]
    index = torch.where(torch.rand(L, generator=gen, device=device) < 0.25, pick, index)
    index[-1] = index[0]
    return (base, index, src)


def reference(base: torch.Tensor, index: torch.Tensor, src: torch.Tensor) -> torch.Tensor:
    return base.index_add(0, index, src)


def exercised(config: dict, base: torch.Tensor, index: torch.Tensor, src: torch.Tensor) -> dict:
    """The description's rule, seen in these inputs: destinations that receive several rows."""
    counts = torch.bincount(index, minlength=base.shape[0])
    return {"repeated destination rows": bool((counts > 1).any())}
