"""torch2triton/rope_neox: the PyTorch eager baseline (Hugging Face's apply_rotary_pos_emb and
rotate_half, the GPT-NeoX/LLaMA "half-split" rotary embedding, applied to the query and key
states in (batch, seq, heads, head_dim) layout, i.e. with unsqueeze_dim=2)."""

import torch


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def forward(q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> tuple:
    cos = cos.unsqueeze(2)
    sin = sin.unsqueeze(2)
    q_embed = (q * cos) + (rotate_half(q) * sin)
    k_embed = (k * cos) + (rotate_half(k) * sin)
    return (q_embed, k_embed)
