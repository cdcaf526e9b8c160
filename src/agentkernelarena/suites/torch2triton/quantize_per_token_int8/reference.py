"""Reference and inputs for dynamic per-token symmetric int8 quantization.

About half of the rows are made of exact ties: values (c / 2) * 2^e with integer codes c and
one code 254, so that scale = 2^e exactly and x / scale = c / 2, half of them k + 0.5: they
decide between round-half-to-even (torch.round) and other roundings. The other rows are
Gaussian with their own magnitude. No row is all zero.
"""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    row_scale = torch.exp(torch.randn(M, 1, generator=gen, device=device))
    gauss = torch.randn(M, N, generator=gen, device=device) * row_scale
    codes = torch.randint(-253, 254, (M, N), generator=gen, device=device)
    peak = torch.randint(0, N, (M, 1), generator=gen, device=device)
    sign = torch.where(torch.rand(M, 1, generator=gen, device=device) < 0.5, 1, -1)
    codes = codes.scatter(1, peak, 254 * sign)
    exponent = torch.randint(-8, 4, (M, 1), generator=gen, device=device).float()
    ties = codes.float() * 0.5 * torch.exp2(exponent)
    tied_rows = torch.rand(M, 1, generator=gen, device=device) < 0.5
    return (torch.where(tied_rows, ties, gauss).to(dtype),)


def reference(x: torch.Tensor) -> tuple:
    xf = x.float()
    scale = xf.abs().amax(dim=-1, keepdim=True) / 127
    q = torch.round(xf / scale).clamp(-127, 127).to(torch.int8)
    return (q, scale)


def exercised(config: dict, x: torch.Tensor) -> dict:
    xf = x.float()
    v = xf / (xf.abs().amax(dim=-1, keepdim=True) / 127)
    return {"ties x / scale = k + 0.5 occur": bool(((v - v.floor()) == 0.5).any()),
            "no row is all zero": bool((xf.abs().amax(dim=-1) > 0).all())}
