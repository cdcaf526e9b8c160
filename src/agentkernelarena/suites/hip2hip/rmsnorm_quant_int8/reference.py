"""Reference and inputs for fused RMSNorm + per-row int8 quantization (exact float32 steps)."""

import torch

EPS = 1e-6


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    M, N = config["M"], config["N"]
    # Multiples of 1/4 of at most 4 in magnitude (exact in float16 and bfloat16): every partial
    # sum of squares is exact in float32, so the sum is the same in any order and every later
    # step is one correctly rounded float32 operation. Rows have their own spread.
    k = torch.randint(-16, 17, (M, N), generator=gen, device=device)
    spread = torch.randint(1, 5, (M, 1), generator=gen, device=device)
    x = (k // spread).float().div_(4)
    x[:, 0] = torch.where(x[:, 0] == 0, torch.full_like(x[:, 0], 0.25), x[:, 0])  # no zero row
    weight = torch.randn(N, generator=gen, device=device).mul_(0.3).add_(1.0)
    return (x.to(dtype), weight.to(dtype))


def _f32(t: torch.Tensor) -> torch.Tensor:
    """Rounded to float32 (kept in float64 for the next operation)."""
    return t.to(torch.float32).to(torch.float64)


def reference(x: torch.Tensor, weight: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    # Every float32 operation is computed in float64 and rounded to float32 once: for a sum,
    # product, quotient or square root of float32 values that is the correctly rounded float32
    # result (torch's own float32 kernels need not round sqrt and division correctly).
    xd, wd = x.to(torch.float64), weight.to(torch.float64)
    ss = _f32((xd * xd).sum(-1))  # exact: multiples of 1/16, far below 2**24 units
    mean = _f32(ss / x.shape[-1])
    eps = torch.tensor(EPS, dtype=torch.float32).item()
    r = _f32(1.0 / _f32(torch.sqrt(_f32(mean + eps))))
    y = _f32(_f32(xd * r[:, None]) * wd[None, :])
    scale = _f32(y.abs().amax(-1) / 127.0)
    q = torch.round(_f32(y / scale[:, None])).clamp_(-127, 127).to(torch.int8)
    return q, scale.to(torch.float32)


def exercised(config: dict, *inputs) -> dict:
    """The description's rules, seen in this configuration (`aka tasks check`)."""
    q, _ = reference(*inputs)
    return {
        "N not a multiple of 8": config["N"] % 8 != 0,
        "both signs reach the int8 range": bool((q == 127).any() or (q == -127).any()),
    }
