"""instruction2triton/masked_row_max: the reference and the inputs."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(M, N, generator=gen, device=device).to(dtype)
    mask = torch.rand(M, N, generator=gen, device=device) < 0.5
    # Every 16th row (from row 7 on) has no true element: its result is -inf.
    mask[7::16] = False
    return (x, mask)


def reference(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    return x.masked_fill(~mask, float("-inf")).amax(dim=-1)


def min_bytes(config: dict, x, mask) -> int:
    """The mask and the output once, and only the kept elements of x."""
    size = x.element_size()
    return mask.numel() + int(mask.sum()) * size + x.shape[0] * size


def exercised(config: dict, x, mask) -> dict:
    masked = x.float().masked_fill(~mask, float("-inf")).amax(-1)
    has_any = mask.any(-1)
    return {"a row with no true element": bool((~has_any).any()),
            "a masked-out element above the row's masked max":
                bool(((x.float().amax(-1) > masked) & has_any).any())}
