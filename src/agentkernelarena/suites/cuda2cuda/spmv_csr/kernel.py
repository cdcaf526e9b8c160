"""cuda2cuda/spmv_csr: the entry. Builds kernel.cu (editable) with binding.cpp (not editable)."""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.cu"], binding="binding.cpp")


def forward(row_ptr: torch.Tensor, col_idx: torch.Tensor, values: torch.Tensor,
            x: torch.Tensor) -> torch.Tensor:
    return _ext.spmv_csr(row_ptr, col_idx, values, x)
