"""Reference and inputs for merging features into masked token rows (masked_scatter)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    T, D, RUN = config["T"], config["D"], config["RUN"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(T, D, generator=gen, device=device).to(dtype)
    src = torch.randn(T, D, generator=gen, device=device).mul_(0.5).add_(1.0).to(dtype)
    # Image-like runs of RUN masked tokens at random places between text tokens: every block
    # of 2 * RUN tokens holds one run at a random offset (the last, partial block may hold a
    # partial run or none), so at most about half of the tokens are masked.
    n_blocks = -(-T // (2 * RUN))
    start = torch.randint(0, RUN + 1, (n_blocks,), generator=gen, device=device)
    pos = torch.arange(T, device=device)
    block, within = pos // (2 * RUN), pos % (2 * RUN)
    s = start[block]
    mask = (within >= s) & (within < s + RUN)
    return (x, mask, src)


def reference(x: torch.Tensor, mask: torch.Tensor, src: torch.Tensor) -> torch.Tensor:
    return x.masked_scatter(mask[:, None].expand_as(x), src)


def min_bytes(config: dict, x: torch.Tensor, mask: torch.Tensor, src: torch.Tensor) -> int:
    """What a correct kernel must move: the mask, one source row per token (a row of src for a
    masked token, of x otherwise) and the output."""
    return mask.numel() + 2 * x.numel() * x.element_size()


def exercised(config: dict, x: torch.Tensor, mask: torch.Tensor, src: torch.Tensor) -> dict:
    """The description's rules, seen in these inputs."""
    kept = int(mask.sum())
    return {"masked and unmasked tokens": 0 < kept < mask.numel(),
            "masked tokens not a prefix": bool((mask.cumprod(0) != mask).any())}
