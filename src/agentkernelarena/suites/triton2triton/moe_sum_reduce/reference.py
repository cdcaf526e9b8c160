"""Reference and inputs for the weighted top-k reduction that combines MoE expert outputs."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    T, K, H = config["T"], config["K"], config["H"]
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    expert_out = torch.randn(T, K, H, generator=gen, device=device).to(dtype)
    # Router weights: positive, of different sizes, not summing to one (as after a routed
    # scaling factor), so neither a plain sum nor a mean is right.
    w = torch.rand(T, K, generator=gen, device=device) * 1.5 + 0.1
    return (expert_out, w.float())


def reference(expert_out: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
    out = (expert_out.float() * weights[..., None].float()).sum(dim=1)
    return out.to(expert_out.dtype)
