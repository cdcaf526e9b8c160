"""Reference and inputs for the Mamba selective scan (diagonal state-space recurrence)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, L, D, N = config["B"], config["L"], config["D"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(B, L, D, generator=gen, device=device).to(dtype)
    # delta = softplus(...) as the model computes it: positive, mostly 0.001-0.1.
    delta = torch.nn.functional.softplus(
        torch.randn(B, L, D, generator=gen, device=device) - 4.0).to(dtype)
    # A = -exp(A_log) as in Mamba (S4D-real init plus noise): negative real, per channel/state.
    A = -(torch.arange(1, N + 1, device=device, dtype=torch.float32)[None, :].repeat(D, 1)
          * (0.5 + torch.rand(D, N, generator=gen, device=device)))
    Bm = torch.randn(B, L, N, generator=gen, device=device).to(dtype)
    Cm = torch.randn(B, L, N, generator=gen, device=device).to(dtype)
    Dskip = torch.randn(D, generator=gen, device=device)
    return (x, delta, A, Bm, Cm, Dskip)


def reference(x, delta, A, Bm, Cm, Dskip):
    acc = A.dtype
    Bsz, L, D = x.shape
    xf, df = x.to(acc), delta.to(acc)
    h = torch.zeros(Bsz, D, A.shape[1], dtype=acc, device=x.device)
    ys = []
    for t in range(L):
        dt = df[:, t, :, None]
        h = torch.exp(dt * A[None]) * h + dt * Bm[:, t, None, :].to(acc) * xf[:, t, :, None]
        ys.append((h * Cm[:, t, None, :].to(acc)).sum(-1) + Dskip[None] * xf[:, t])
    return torch.stack(ys, dim=1).to(x.dtype)
