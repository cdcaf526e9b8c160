"""torch2cuda/batchnorm_relu_inference: the entry. Builds kernel.cu (editable) with binding.cpp
(not editable).

The baseline this task is measured against is PyTorch eager, in baseline.py.
"""

import torch

from agentkernelarena.native import load

EPS = 1e-5
_ext = load(__file__, ["kernel.cu"], binding="binding.cpp")


def forward(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor,
            running_mean: torch.Tensor, running_var: torch.Tensor) -> torch.Tensor:
    return _ext.batchnorm_relu(x, weight, bias, running_mean, running_var, EPS)
