"""Reference and inputs for multimodal rotary position embedding (Qwen2-VL M-RoPE, NeoX)."""

import torch


def sections(D: int) -> tuple:
    """Frequencies per section (temporal, height, width): (D/8, 3D/16, 3D/16), e.g. 16, 24, 24."""
    return (D // 8, 3 * D // 16, 3 * D // 16)


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    T, HQ, HKV, D, MAXPOS = (config[k] for k in ("T", "HQ", "HKV", "D", "MAXPOS"))
    gen = torch.Generator(device=device).manual_seed(seed)
    q = torch.randn(T, HQ, D, generator=gen, device=device).to(dtype)
    k = torch.randn(T, HKV, D, generator=gen, device=device).to(dtype)
    # Text tokens have three equal positions; image/video tokens (about half, in runs) have
    # distinct temporal, height and width positions.
    positions = torch.randint(0, MAXPOS, (3, T), generator=gen, device=device, dtype=torch.int64)
    text = torch.rand(T, generator=gen, device=device) < 0.5
    positions = torch.where(text[None, :], positions[:1].expand(3, T), positions)
    inv_freq = 1.0 / (1000000.0 ** (torch.arange(0, D, 2, device=device, dtype=torch.float64)
                                    / D))
    angles = torch.arange(MAXPOS, device=device, dtype=torch.float64)[:, None] * inv_freq[None, :]
    cos_sin = torch.cat([angles.cos(), angles.sin()], dim=-1).to(torch.float32)
    return (q, k, cos_sin, positions.contiguous())


def _section_of(D: int, device) -> torch.Tensor:
    s0, s1, s2 = sections(D)
    return torch.cat([torch.full((s,), i, dtype=torch.int64, device=device)
                      for i, s in enumerate((s0, s1, s2))])


def rotate(q, k, cos_sin, positions, section_of):
    half = q.shape[-1] // 2
    T = q.shape[0]
    # pos[t, i]: the position of frequency i of token t, from its section's row.
    pos = positions[section_of[None, :].expand(T, half), torch.arange(T, device=q.device)[:, None]]
    idx = torch.arange(half, device=q.device)[None, :]
    cos = cos_sin[pos, idx][:, None, :]
    sin = cos_sin[pos, idx + half][:, None, :]

    def rot(x):
        x1, x2 = x[..., :half], x[..., half:]
        return torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1).to(x.dtype)
    return (rot(q), rot(k))


def reference(q, k, cos_sin, positions):
    return rotate(q, k, cos_sin, positions, _section_of(q.shape[-1], q.device))


def exercised(config: dict, q, k, cos_sin, positions) -> dict:
    return {"tokens with distinct t/h/w positions": bool((positions[0] != positions[1]).any()),
            "text tokens (equal positions)": bool((positions[0] == positions[2]).any())}
