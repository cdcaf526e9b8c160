"""torch2hip/swiglu: the PyTorch eager baseline (the gated MLP of a model with a fused
gate/up projection, as Phi-3 or vLLM's LLaMA write it)."""

import torch
import torch.nn.functional as F


def forward(x: torch.Tensor) -> torch.Tensor:
    gate, up = x.chunk(2, dim=-1)
    return F.silu(gate) * up
