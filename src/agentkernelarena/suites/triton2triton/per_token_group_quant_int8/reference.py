"""Reference and inputs for per-token-group symmetric int8 quantization (groups of 128)."""

import torch

GROUP = 128


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    G = N // GROUP
    gen = torch.Generator(device=device).manual_seed(seed)
    # Groups with very different magnitudes, so that every group gets its own scale.
    mag = torch.exp(2.0 * torch.randn(M, G, 1, generator=gen, device=device))
    x = torch.randn(M, G, GROUP, generator=gen, device=device) * mag
    # Every other group is built so that x / scale lands exactly on halves (k + 0.5): the
    # group's absmax is 127 * 2^e (scale 2^e exactly) and the other elements are multiples of
    # 2^(e-1), all exactly representable in bfloat16. These decide half-to-even rounding.
    e = torch.randint(-10, 4, (M, G, 1), generator=gen, device=device).float()
    halves = torch.randint(-253, 254, (M, G, GROUP), generator=gen, device=device).float()
    exact = halves * 0.5 * torch.exp2(e)
    pos = torch.randint(0, GROUP, (M, G, 1), generator=gen, device=device)
    sign = torch.randint(0, 2, (M, G, 1), generator=gen, device=device).float() * 2 - 1
    exact.scatter_(2, pos, sign * 127.0 * torch.exp2(e))
    tie_group = (torch.arange(G, device=device) % 2 == 1).view(1, G, 1)
    x = torch.where(tie_group, exact, x)
    return (x.reshape(M, N).to(dtype),)


def reference(x: torch.Tensor) -> tuple:
    M, N = x.shape
    xf = x.float().view(M, N // GROUP, GROUP)
    scale = xf.abs().amax(dim=2).clamp(min=1e-10) / 127
    q = torch.round(xf / scale[..., None]).clamp(-127, 127).to(torch.int8)
    return (q.view(M, N), scale)


def exercised(config: dict, *inputs) -> dict:
    """Some x / scale fall exactly on k + 0.5, where half-to-even rounding decides."""
    (x,) = inputs
    M, N = x.shape
    xf = x.float().view(M, N // GROUP, GROUP)
    scale = xf.abs().amax(dim=2).clamp(min=1e-10) / 127
    v = xf / scale[..., None]
    return {"ties at k + 0.5": bool(((v - v.floor()) == 0.5).any())}
