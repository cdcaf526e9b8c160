"""${task_id}: write this entry with ${language} kernels (${source}, bound in binding.cpp).

It must compute what Model.forward in problem.py computes (reference.py runs it; PyTorch here
only for allocation, views and reshapes). Its arguments, in order:
${arguments}
It returns ${returns}.

This skeleton is wired end to end (${source} is built with binding.cpp through the arena's
build helper, docs/native.md) but does not compute the function yet: it copies ${first}.
Change all three files as you need: the binding's functions, the launchers, the kernels.
"""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["${source}"], binding="binding.cpp")


def forward(${signature}):
    out = torch.empty_like(${first})
    _ext.copy(${first}, out)
    return out
