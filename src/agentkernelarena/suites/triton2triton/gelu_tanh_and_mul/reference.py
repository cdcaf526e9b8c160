"""Reference and inputs for the GeGLU activation with tanh-approximated GELU (Gemma MLPs)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    # The fused gate/up projection output: gate in the first half of each row, up in the second.
    x = torch.randn(config["M"], 2 * config["N"], generator=gen, device=device).mul_(1.5)
    return (x.to(dtype),)


def reference(x: torch.Tensor) -> torch.Tensor:
    n = x.shape[-1] // 2
    gate, up = x[:, :n], x[:, n:]
    return torch.nn.functional.gelu(gate, approximate="tanh") * up
