"""torch2triton/bias_gelu_dropout_eval: the PyTorch eager baseline (the intermediate block of a
BERT/GPT-2-style MLP whose linear layer's bias is applied separately, e.g. a bias-less matmul
followed by the bias add, then the exact GELU and a dropout; at inference the module is in eval
mode, where F.dropout returns its input unchanged)."""

import torch
import torch.nn.functional as F

DROPOUT_P = 0.1


def forward(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    h = x + bias
    h = F.gelu(h)
    return F.dropout(h, p=DROPOUT_P, training=False)
