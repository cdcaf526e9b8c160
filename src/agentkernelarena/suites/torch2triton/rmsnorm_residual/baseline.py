"""torch2triton/rmsnorm_residual: the PyTorch eager baseline (a LLaMA decoder layer's residual
add followed by its RMSNorm module, as Hugging Face's LlamaDecoderLayer and LlamaRMSNorm write
them: the residual stream is kept in the model's dtype and returned for the next add)."""

import torch

EPS = 1e-6


def forward(x: torch.Tensor, residual: torch.Tensor, weight: torch.Tensor) -> tuple:
    residual = residual + x
    input_dtype = residual.dtype
    hidden = residual.to(torch.float32)
    variance = hidden.pow(2).mean(-1, keepdim=True)
    hidden = hidden * torch.rsqrt(variance + EPS)
    normed = weight * hidden.to(input_dtype)
    return (normed, residual)
