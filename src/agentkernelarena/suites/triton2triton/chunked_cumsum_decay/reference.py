"""Reference and inputs for the chunk-local cumulative sum of log-decays (linear attention)."""

import torch

CHUNK = 64


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    B, H, T = config["B"], config["H"], config["T"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Log-decays of a gated linear attention layer: g = -softplus(a) < 0, per head of a
    # different typical size.
    a = torch.randn(B, H, T, generator=gen, device=device) * 1.5
    a = a + torch.randn(1, H, 1, generator=gen, device=device)
    return (-torch.nn.functional.softplus(a),)


def reference(g: torch.Tensor) -> torch.Tensor:
    B, H, T = g.shape
    n = -(-T // CHUNK)
    padded = torch.nn.functional.pad(g, (0, n * CHUNK - T))
    out = padded.view(B, H, n, CHUNK).cumsum(dim=-1).view(B, H, n * CHUNK)
    return out[..., :T].contiguous()


def exercised(config: dict, g: torch.Tensor) -> dict:
    return {"a shorter last chunk (T not a multiple of 64)": g.shape[-1] % CHUNK != 0}
