"""instruction2triton/clip_grad_norm_scale: the PyTorch eager operator the Triton kernel
replaces (the arithmetic of torch.nn.utils.clip_grad_norm_, out of place)."""

import torch


def forward(g: torch.Tensor, max_norm: float) -> torch.Tensor:
    total_norm = torch.linalg.vector_norm(g, 2.0)
    clip_coef = max_norm / (total_norm + 1e-6)
    clip_coef_clamped = torch.clamp(clip_coef, max=1.0)
    return g * clip_coef_clamped
