"""Reference and inputs for K-nearest-neighbour search between point clouds."""

import torch


def _sq_dists(q: torch.Tensor, p: torch.Tensor) -> torch.Tensor:
    # Direct differences (no |q|^2 + |p|^2 - 2 q.p expansion): accurate in float64.
    return torch.cdist(q, p, compute_mode="donot_use_mm_for_euclid_dist").square()


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    B, N, M, K = config["B"], config["N"], config["M"], config["K"]
    gen = torch.Generator(device=device).manual_seed(seed)
    p = torch.rand(B, M, 3, generator=gen, device=device) - 0.5
    q = torch.rand(B, N, 3, generator=gen, device=device) - 0.5
    # No near-ties among each query's K + 1 nearest: consecutive squared distances differ by
    # more than 2e-6 (+ 1e-6 relative), ten times float32 rounding of any way of computing them
    # (coordinates lie in [-0.5, 0.5)); queries that violate it are drawn again
    # (deterministically, from the same generator) and only those are checked again.
    for b in range(B):
        todo = torch.arange(N, device=device)
        p64 = p[b].double()
        for _ in range(500):
            bad = []
            for n0 in range(0, todo.numel(), 2048):
                rows = todo[n0:n0 + 2048]
                d = _sq_dists(q[b, rows].double(), p64)
                top = torch.topk(d, min(K + 1, M), dim=-1, largest=False).values
                gap = top[:, 1:] - top[:, :-1]
                bad.append(rows[(gap <= 2e-6 + 1e-6 * top[:, 1:]).any(-1)])
            todo = torch.cat(bad)
            if todo.numel() == 0:
                break
            q[b, todo] = torch.rand(todo.numel(), 3, generator=gen, device=device) - 0.5
        assert todo.numel() == 0, "could not draw tie-free queries"
    return (q, p, K)


def reference(q: torch.Tensor, p: torch.Tensor, k: int):
    d = _sq_dists(q, p)
    dists, idx = torch.topk(d, k, dim=-1, largest=False, sorted=True)
    return (dists.to(q.dtype), idx)
