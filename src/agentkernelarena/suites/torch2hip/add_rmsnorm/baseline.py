"""torch2hip/add_rmsnorm: the PyTorch eager baseline (a LLaMA decoder layer's residual add
followed by its RMSNorm module, as Hugging Face's LlamaRMSNorm writes it)."""

import torch

EPS = 1e-6


def forward(x: torch.Tensor, residual: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    hidden = residual + x
    hf = hidden.to(torch.float32)
    variance = hf.pow(2).mean(-1, keepdim=True)
    hf = hf * torch.rsqrt(variance + EPS)
    return w * hf.to(x.dtype)
