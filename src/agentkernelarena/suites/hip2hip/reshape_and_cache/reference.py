"""Reference and inputs for writing new keys and values into a paged KV cache (vLLM's
reshape_and_cache, NB x BS x H x D layout)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    T, H, D, BS, NB = (config[k] for k in ("T", "H", "D", "BS", "NB"))
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    key = torch.randn(T, H, D, generator=gen, device=device).to(dtype)
    value = torch.randn(T, H, D, generator=gen, device=device).to(dtype)
    k_cache = torch.randn(NB, BS, H, D, generator=gen, device=device).to(dtype)
    v_cache = torch.randn(NB, BS, H, D, generator=gen, device=device).to(dtype)
    # Distinct slots anywhere in the cache but its very last one (a -1 used as a Python-style
    # index would write there); T // 16 tokens (at least one) are padding (-1).
    slots = torch.randperm(NB * BS - 1, generator=gen, device=device)[:T]
    pad = torch.randperm(T, generator=gen, device=device)[: max(1, T // 16)]
    slots[pad] = -1
    return (key, value, k_cache, v_cache, slots)


def reference(key, value, k_cache, v_cache, slot_mapping):
    NB, BS, H, D = k_cache.shape
    k_out = k_cache.clone().view(NB * BS, H, D)
    v_out = v_cache.clone().view(NB * BS, H, D)
    keep = slot_mapping >= 0
    k_out[slot_mapping[keep]] = key[keep]
    v_out[slot_mapping[keep]] = value[keep]
    return (k_out.view(NB, BS, H, D), v_out.view(NB, BS, H, D))


def exercised(config: dict, key, value, k_cache, v_cache, slot_mapping) -> dict:
    return {"padding tokens (slot -1)": bool((slot_mapping < 0).any()),
            "H * D not a multiple of 8": config["H"] * config["D"] % 8 != 0}
