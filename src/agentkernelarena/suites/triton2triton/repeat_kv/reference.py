"""Reference and inputs for expanding grouped key/value heads (GQA repeat_kv)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, HKV, S, D = config["B"], config["HKV"], config["S"], config["D"]
    gen = torch.Generator(device=device).manual_seed(seed)
    kv = torch.randn(B, HKV, S, D, generator=gen, device=device).to(dtype)
    return (kv, config["REP"])


def reference(kv: torch.Tensor, rep: int) -> torch.Tensor:
    B, HKV, S, D = kv.shape
    return kv[:, :, None].expand(B, HKV, rep, S, D).reshape(B, HKV * rep, S, D)
