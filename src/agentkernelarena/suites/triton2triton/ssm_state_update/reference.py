"""Reference and inputs for one decode step of the Mamba selective state-space model."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, D, N = config["B"], config["D"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(B, D, generator=gen, device=device).to(dtype)
    # softplus(dt + dt_bias) mostly 0.01-0.5, as in a trained model.
    dt = torch.randn(B, D, generator=gen, device=device).mul_(0.5).to(dtype)
    dt_bias = torch.rand(D, generator=gen, device=device) * 3.0 - 4.0
    A = -(torch.arange(1, N + 1, device=device, dtype=torch.float32)[None, :].repeat(D, 1)
          * (0.5 + torch.rand(D, N, generator=gen, device=device)))
    Bm = torch.randn(B, N, generator=gen, device=device).to(dtype)
    Cm = torch.randn(B, N, generator=gen, device=device).to(dtype)
    Dskip = torch.randn(D, generator=gen, device=device)
    state = torch.randn(B, D, N, generator=gen, device=device)
    return (x, dt, dt_bias, A, Bm, Cm, Dskip, state)


def reference(x, dt, dt_bias, A, Bm, Cm, Dskip, state):
    acc = state.dtype
    delta = torch.nn.functional.softplus(dt.to(acc) + dt_bias[None].to(acc), threshold=1e9)
    h = (torch.exp(delta[..., None] * A[None]) * state
         + delta[..., None] * Bm[:, None, :].to(acc) * x[..., None].to(acc))
    y = (h * Cm[:, None, :].to(acc)).sum(-1) + Dskip[None] * x.to(acc)
    return (y.to(x.dtype), h)
