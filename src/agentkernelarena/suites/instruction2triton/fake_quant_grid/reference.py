"""instruction2triton/fake_quant_grid: the reference and the inputs."""

import torch

STEP = 0.0625  # 2 ** -4: x / STEP and q * STEP are exact in every dtype
QMIN, QMAX = -128, 127


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Standard deviation 4: about 5% of the values lie beyond the grid's ends (+-8).
    x = torch.randn(M, N, generator=gen, device=device).mul_(4.0)
    # About 6% exact ties, (k + 0.5) * STEP for k from QMIN to QMAX - 1 (even and odd k alike):
    # round-half-to-even decides them. They are exact in float16 and bfloat16 too (|x| < 8).
    k = torch.randint(QMIN, QMAX, (M, N), generator=gen, device=device).to(torch.float32)
    tie = torch.rand(M, N, generator=gen, device=device) < 0.06
    x = torch.where(tie, (k + 0.5) * STEP, x)
    return (x.to(dtype), STEP, QMIN, QMAX)


def reference(x: torch.Tensor, step: float, qmin: int, qmax: int) -> torch.Tensor:
    return torch.clamp(torch.round(x / step), qmin, qmax) * step


def exercised(config: dict, x, step, qmin, qmax) -> dict:
    v = x.double() / step
    tie = v - torch.floor(v) == 0.5
    even = torch.remainder(torch.floor(v), 2) == 0
    inside = (v > qmin) & (v < qmax)
    return {"a tie with an even lower neighbour (rounds down)": bool((tie & even & inside).any()),
            "a tie with an odd lower neighbour (rounds up)": bool((tie & ~even & inside).any()),
            "a negative tie": bool((tie & inside & (v < 0)).any()),
            "x / step below qmin": bool((v < qmin - 1).any()),
            "x / step above qmax": bool((v > qmax + 1).any())}
