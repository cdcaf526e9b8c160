"""The platform registry.

A platform decides the torch device, the worker's environment (the CPU platform switches Triton
to its interpreter), and whether timings can be compared with other machines' (only real GPUs).
Detection imports torch lazily so that commands which never evaluate stay fast.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from agentkernelarena.errors import AkaError


@dataclass(frozen=True)
class Platform:
    name: str
    device: str
    comparable: bool
    description: str
    worker_env: dict[str, str] = field(default_factory=dict)


PLATFORMS: dict[str, Platform] = {
    "cuda": Platform("cuda", "cuda", True, "NVIDIA GPU through CUDA"),
    "rocm": Platform("rocm", "cuda", True, "AMD GPU through ROCm/HIP"),
    "cpu": Platform(
        "cpu",
        "cpu",
        False,
        "no GPU: Triton's interpreter, host-clock timings, compile-only for CUDA/HIP",
        {"TRITON_INTERPRET": "1"},
    ),
}


@functools.cache
def _gpu_kind() -> str | None:
    try:
        import torch
    except ImportError as exc:  # pragma: no cover - depends on the machine
        raise AkaError("PyTorch is not installed", "run `make setup` (see README)") from exc
    if not torch.cuda.is_available():
        return None
    return "rocm" if getattr(torch.version, "hip", None) else "cuda"


def detect_platform() -> Platform:
    """The best platform on this machine: its GPU if there is one, else the CPU fallback."""
    return PLATFORMS[_gpu_kind() or "cpu"]


def get_platform(name: str | None) -> Platform:
    """`name` checked against this machine, or the detected platform when None."""
    if name is None:
        return detect_platform()
    if name not in PLATFORMS:
        raise AkaError(f"unknown platform '{name}'", f"one of {', '.join(PLATFORMS)}")
    if name != "cpu" and _gpu_kind() != name:
        found = _gpu_kind() or "no GPU"
        raise AkaError(f"platform '{name}' is not available on this machine (found: {found})",
                       "leave out --platform to use what is here, or --platform cpu")
    return PLATFORMS[name]
