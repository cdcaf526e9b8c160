"""Reference and inputs for the int8 x int8 GEMM with per-token and per-channel scales."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    M, N, K = config["M"], config["N"], config["K"]
    gen = torch.Generator(device=device).manual_seed(seed)
    xq = torch.randint(-127, 128, (M, K), generator=gen, device=device, dtype=torch.int8)
    wq = torch.randint(-127, 128, (N, K), generator=gen, device=device, dtype=torch.int8)
    # Scales such that the result has unit scale: |q| ~ 73 on average, K terms.
    x_scale = (torch.rand(M, generator=gen, device=device) + 0.5).mul_(1.0 / 73.0)
    w_scale = (torch.rand(N, generator=gen, device=device) + 0.5).mul_(K**-0.5 / 73.0)
    return (xq, x_scale, wq, w_scale, getattr(torch, config["dtype"]))


def reference(xq, x_scale, wq, w_scale, out_dtype):
    # Exact: every partial sum is an integer below 2^31, representable in float64.
    acc = xq.to(torch.float64) @ wq.to(torch.float64).T
    out = acc * x_scale.to(torch.float64)[:, None] * w_scale.to(torch.float64)[None, :]
    return out.to(out_dtype)
