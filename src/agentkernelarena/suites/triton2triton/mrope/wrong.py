"""Known-wrong variants of M-RoPE: the section sizes in the wrong order (3D/16, 3D/16, D/8),
the sections interleaved (frequency i uses section i % 3, as in later Qwen models), and plain
1-D RoPE with the temporal position only."""

import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location(
    "mrope_ref", Path(__file__).with_name("reference.py"))
_ref = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_ref)


def sections_reversed(q, k, cos_sin, positions):
    D = q.shape[-1]
    sizes = (3 * D // 16, 3 * D // 16, D // 8)
    section_of = torch.cat([torch.full((s,), i, dtype=torch.int64, device=q.device)
                            for i, s in enumerate(sizes)])
    return _ref.rotate(q, k, cos_sin, positions, section_of)


def sections_interleaved(q, k, cos_sin, positions):
    section_of = torch.arange(q.shape[-1] // 2, device=q.device) % 3
    return _ref.rotate(q, k, cos_sin, positions, section_of)


def temporal_only(q, k, cos_sin, positions):
    section_of = torch.zeros(q.shape[-1] // 2, dtype=torch.int64, device=q.device)
    return _ref.rotate(q, k, cos_sin, positions, section_of)
