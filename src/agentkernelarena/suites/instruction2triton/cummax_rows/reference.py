"""instruction2triton/cummax_rows: the reference and the inputs."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Noise plus a per-row drift of -8 to +8 standard deviations over the row: in rising rows
    # the running maximum keeps changing to the very end, in falling ones it settles early.
    drift = torch.rand(M, 1, generator=gen, device=device).mul_(16.0).sub_(8.0)
    ramp = torch.arange(N, device=device, dtype=torch.float32).div_(max(N - 1, 1))
    x = torch.randn(M, N, generator=gen, device=device).add_(drift * ramp)
    return (x.to(dtype),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.cummax(x, dim=-1).values


def exercised(config: dict, x) -> dict:
    run = torch.cummax(x, dim=-1).values
    n = x.shape[-1]
    last_quarter = run[:, -1] > run[:, (3 * n) // 4]
    return {"a row whose running maximum still rises in its last quarter":
                bool(last_quarter.any()),
            "a row whose running maximum is set in its first quarter":
                bool((run[:, -1] == run[:, n // 4]).any())}
