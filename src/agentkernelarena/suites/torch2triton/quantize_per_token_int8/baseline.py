"""torch2triton/quantize_per_token_int8: the PyTorch eager baseline (dynamic per-token symmetric
int8 quantization of activations before a W8A8 matmul, as SmoothQuant-style reference code
writes it: in float32, one scale per token from its absolute maximum, round, clamp, cast)."""

import torch


def forward(x: torch.Tensor) -> tuple:
    x = x.float()
    scale = x.abs().amax(dim=-1, keepdim=True) / 127
    q = torch.round(x / scale).clamp(-127, 127).to(torch.int8)
    return (q, scale)
