"""cuda2cuda/depthwise_conv2d: the entry. Builds kernel.cu (editable) with binding.cpp."""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.cu"], binding="binding.cpp")


def forward(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return _ext.depthwise_conv2d(x, w)
