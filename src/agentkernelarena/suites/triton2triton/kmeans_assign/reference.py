"""Reference and inputs for the k-means assignment step."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    N, K, D = config["N"], config["K"], config["D"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Centroids of different norms (so a dot-product similarity picks other ones), each point
    # a small perturbation of a random centroid: the nearest one is never in doubt.
    norms = torch.rand(K, 1, generator=gen, device=device).mul_(1.5).add_(0.5)
    c = torch.randn(K, D, generator=gen, device=device).mul_(norms)
    owner = torch.randint(0, K, (N,), generator=gen, device=device)
    x = c[owner] + torch.randn(N, D, generator=gen, device=device).mul_(0.15)
    return (x.to(dtype), c.to(dtype))


def reference(x: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
    d2 = (x * x).sum(-1, keepdim=True) - 2.0 * (x @ c.T) + (c * c).sum(-1)[None, :]
    return d2.argmin(-1)


def exercised(config: dict, x: torch.Tensor, c: torch.Tensor) -> dict:
    idx = reference(x.double(), c.double())
    return {
        "a point's nearest centroid is not the one of the largest inner product":
            bool((idx != (x.double() @ c.double().T).argmax(-1)).any()),
        "a point is assigned to a centroid past the first block of 64":
            bool((idx >= 64).any()),
    }
