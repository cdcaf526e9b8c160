"""torch2triton/swiglu: the PyTorch eager baseline (the activation of a LLaMA/Qwen-style MLP whose
gate and up projections are fused into one matmul: its output is split along the last dimension
and act_fn(gate) * up feeds the down projection)."""

import torch
import torch.nn.functional as F


def forward(gate_up: torch.Tensor) -> torch.Tensor:
    gate, up = gate_up.chunk(2, dim=-1)
    return F.silu(gate) * up
