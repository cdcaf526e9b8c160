"""Reference and inputs for the out-of-place 2D transpose task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(config["M"], config["N"], generator=gen, device=device)
    return (x.to(getattr(torch, config["dtype"])),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return x.t().contiguous()


def exercised(config: dict, *inputs) -> dict:
    """The description's rules, seen in this configuration (`aka tasks check`)."""
    return {"M not a multiple of 32": config["M"] % 32 != 0,
            "N not a multiple of 32": config["N"] % 32 != 0}
