"""Reference and inputs for the triplet margin loss (p = 2), per row and mean."""

import torch

MARGIN, EPS = 1.0, 0.01


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    N, D = config["N"], config["D"]
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn(N, D, generator=gen, device=device)
    # Positives and negatives at about the same distance: d_ap - d_an spreads around 0 by
    # about 1, so with margin 1 most losses are positive and some are clipped.
    p = a + torch.randn(N, D, generator=gen, device=device)
    n = a + torch.randn(N, D, generator=gen, device=device)
    return (a.to(dtype), p.to(dtype), n.to(dtype), MARGIN, EPS)


def _dist(x: torch.Tensor, y: torch.Tensor, eps: float) -> torch.Tensor:
    return torch.sqrt(((x - y + eps) ** 2).sum(-1))


def reference(anchor, positive, negative, margin: float, eps: float):
    acc = torch.float64 if anchor.dtype == torch.float64 else torch.float32
    a, p, n = anchor.to(acc), positive.to(acc), negative.to(acc)
    loss = torch.clamp(_dist(a, p, eps) - _dist(a, n, eps) + margin, min=0.0)
    return (loss.float(), loss.mean().float())


def exercised(config: dict, anchor, positive, negative, margin, eps) -> dict:
    """The description's rules, seen in these inputs."""
    loss = reference(anchor, positive, negative, margin, eps)[0]
    return {"rows clipped to zero": bool((loss == 0).any()),
            "rows with a positive loss": bool((loss > 0).float().mean() > 0.5)}
