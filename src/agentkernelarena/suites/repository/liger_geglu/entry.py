"""The arena's wrapper (not editable): liger-kernel's GeGLU (tanh) forward, as
LigerGELUMulFunction calls it. The upstream package sits beside this file in every workspace and
evaluation folder, so it is put first on the import path."""

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from liger_kernel.ops.geglu import geglu_forward  # noqa: E402


def forward(a, b):
    return geglu_forward(a, b)[2]
