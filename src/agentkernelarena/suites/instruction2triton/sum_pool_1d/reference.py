"""instruction2triton/sum_pool_1d: the reference and the inputs."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(config["M"], config["L"], generator=gen, device=device).to(dtype)
    return (x, int(config["W"]))


def reference(x: torch.Tensor, W: int) -> torch.Tensor:
    M, L = x.shape
    J = -(-L // W)
    padded = torch.nn.functional.pad(x, (0, J * W - L))
    return padded.reshape(M, J, W).sum(dim=-1)


def exercised(config: dict, x, W) -> dict:
    L = x.shape[1]
    return {"a partial last window (L not a multiple of W)": L % W != 0,
            "W larger than L (one partial window)": W > L}
