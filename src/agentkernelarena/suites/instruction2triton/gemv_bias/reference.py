"""instruction2triton/gemv_bias: the reference and the inputs."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, K = config["M"], config["K"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # nn.Linear layout (M x K), scaled so w @ x has unit scale whatever K is.
    w = torch.randn(M, K, generator=gen, device=device).mul_(K ** -0.5)
    x = torch.randn(K, generator=gen, device=device)
    b = torch.randn(M, generator=gen, device=device).mul_(0.5)
    return (w.to(dtype), x.to(dtype), b.to(dtype))


def reference(w: torch.Tensor, x: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return w @ x + b


def exercised(config: dict, w, x, b) -> dict:
    K = w.shape[1]
    return {"K not a multiple of 128 (a partial last block along K)": K % 128 != 0}
