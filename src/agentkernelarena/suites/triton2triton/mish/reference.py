"""Reference and inputs for the Mish activation task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(M, N, generator=gen, device=device).mul_(3.0)
    # About 2% of the elements have |x| between 20 and 1000 (log-uniform), past softplus's
    # threshold and far enough that exp(2 * softplus(x)) overflows even in float64.
    big = torch.rand(M, N, generator=gen, device=device) < 0.02
    mag = torch.exp(torch.rand(M, N, generator=gen, device=device).mul_(3.9).add_(3.0))
    x = torch.where(big, torch.sign(x) * mag, x)
    return (x.to(dtype),)


def reference(x: torch.Tensor) -> torch.Tensor:
    # softplus(x) = x for x > 20, else log1p(exp(x)) (PyTorch's threshold 20).
    return x * torch.tanh(torch.nn.functional.softplus(x, beta=1.0, threshold=20.0))


def exercised(config: dict, x: torch.Tensor) -> dict:
    xf = x.double()
    return {
        "x above the softplus threshold 20": bool((xf > 20).any()),
        "x above 360 (exp(2x) overflows float64)": bool((xf > 360).any()),
        "x below -20": bool((xf < -20).any()),
    }
