"""Reference and inputs for Linear -> GELU(tanh) -> Linear (a GPT-2-style MLP)."""

import torch
import torch.nn.functional as F


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, D, H, O = config["M"], config["D"], config["H"], config["O"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(M, D, generator=gen, device=device)
    # nn.Linear layouts (out x in), scaled so the pre-activations have a standard deviation of
    # about 1.5 (the GELU's curved part matters) and the outputs have unit scale.
    w1 = torch.randn(H, D, generator=gen, device=device).mul_(1.5 * D ** -0.5)
    b1 = torch.randn(H, generator=gen, device=device).mul_(0.5)
    w2 = torch.randn(O, H, generator=gen, device=device).mul_(1.5 * H ** -0.5)
    b2 = torch.randn(O, generator=gen, device=device).mul_(0.5)
    return tuple(t.to(dtype) for t in (x, w1, b1, w2, b2))


def reference(x, w1, b1, w2, b2):
    return F.linear(F.gelu(F.linear(x, w1, b1), approximate="tanh"), w2, b2)
