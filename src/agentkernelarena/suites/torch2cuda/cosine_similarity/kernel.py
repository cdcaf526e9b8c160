"""torch2cuda/cosine_similarity: the entry. Builds kernel.cu (editable) with binding.cpp.

binding.cpp is not editable. The baseline this task is measured against is PyTorch eager, in
baseline.py.
"""

import torch

from agentkernelarena.native import load

EPS = 1e-8
_ext = load(__file__, ["kernel.cu"], binding="binding.cpp")


def forward(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return _ext.cosine_similarity(a, b, EPS)
