"""torch2cuda/batchnorm_relu_inference: the PyTorch eager baseline (a convolutional network's
BatchNorm2d in eval mode, with its running statistics, followed by ReLU; activations in 16-bit
or float32, the BatchNorm parameters and statistics in float32 as mixed precision keeps them)."""

import torch
import torch.nn.functional as F

EPS = 1e-5


def forward(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor,
            running_mean: torch.Tensor, running_var: torch.Tensor) -> torch.Tensor:
    y = F.batch_norm(x, running_mean, running_var, weight, bias, training=False, eps=EPS)
    return F.relu(y)
