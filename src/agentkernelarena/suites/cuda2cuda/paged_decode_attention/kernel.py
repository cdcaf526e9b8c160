"""cuda2cuda/paged_decode_attention: the entry. Builds kernel.cu (editable) with binding.cpp."""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.cu"], binding="binding.cpp")


def forward(q: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor,
            block_table: torch.Tensor, seq_lens: torch.Tensor) -> torch.Tensor:
    return _ext.paged_decode_attention(q, k_cache, v_cache, block_table, seq_lens)
