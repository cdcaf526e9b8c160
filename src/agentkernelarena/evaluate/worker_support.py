"""What the two worker processes share: argument handling, the input-layout rule, device sync,
version probes, and (for the judge) torch.compile of the baseline."""

from __future__ import annotations

import _thread
import platform as host_platform
import sys
from collections.abc import Callable
from typing import Any

import torch

from agentkernelarena.evaluate.compare import Mismatch


class TaskBug(Exception):
    """The pristine task is broken in a way only evaluation reveals (not the candidate's fault)."""


def upcast_args(args: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(
        a.detach().to(torch.float64) if isinstance(a, torch.Tensor) and a.is_floating_point()
        else a for a in args
    )


def clone_args(args: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(a.clone() if isinstance(a, torch.Tensor) else a for a in args)


def aliasing_problem(out: Any, args: tuple[Any, ...], in_place: bool) -> Mismatch | None:
    """An output sharing memory with an input: a view of it, or the input rewritten."""
    if in_place:
        return None
    outs = [out] if isinstance(out, torch.Tensor) else list(out)
    for o in outs:
        if not isinstance(o, torch.Tensor) or o.numel() == 0:
            continue
        for index, a in enumerate(args):
            if isinstance(a, torch.Tensor) and a.numel() and \
                    o.untyped_storage().data_ptr() == a.untyped_storage().data_ptr():
                return Mismatch(f"returned memory that belongs to input {index}")
    return None


def input_layout(args: tuple[Any, ...]) -> list[tuple[tuple[int, ...], Any]]:
    return [(tuple(a.shape), a.dtype) for a in args if isinstance(a, torch.Tensor)]


def check_same_layout(
    first: tuple[int, list[Any]], seed: int, layout: list[Any], config: str
) -> None:
    """Inputs of every seed must have one layout: outputs are checked against one expected
    shape, and the timer refills one set of buffers in place."""
    if layout != first[1]:
        raise TaskBug(
            f"make_inputs gives other shapes or dtypes for seed {seed} than for seed {first[0]} "
            f"on config {config}; shapes must depend on the configuration only "
            "(docs/task-format.md)"
        )


def native_load_record() -> Any:
    """The native build layer's last load record, if the candidate uses it (else None).

    Reported with the compile gate so that a result says whether a native source was built
    now or came from the cache (and how long the build took)."""
    module = sys.modules.get("agentkernelarena.native.build")
    return module.last_load() if module is not None else None


# Exceptions of the native build layer (agentkernelarena.native) that are not compile errors:
# compiled on a machine that cannot run it, or a toolchain missing from the machine.
NATIVE_OUTCOMES = {"NativeCompiledNotRun": "compile_only", "NativeToolchainError": "infra_error"}


def thread_count() -> int:
    return _thread._count()


def device_sync(device: str) -> None:
    if device == "cuda":
        torch.cuda.synchronize()


def worker_versions(device: str) -> dict[str, Any]:
    info: dict[str, Any] = {"python": host_platform.python_version(), "torch": torch.__version__}
    try:
        import triton

        info["triton"] = triton.__version__
    except ImportError:
        info["triton"] = None
    if device == "cuda":
        props = torch.cuda.get_device_properties(0)
        info["gpu"] = props.name
        info["cuda"] = torch.version.cuda
        info["hip"] = getattr(torch.version, "hip", None)
    return info


def compile_baseline(baseline_fn: Callable[..., Any],
                     make_inputs: Callable[[dict[str, Any], int], tuple[Any, ...]],
                     configs: list[dict[str, Any]], seed: int,
                     device: str) -> tuple[Any, str | None]:
    """torch.compile of a PyTorch baseline, compiled for every visible configuration now, in
    the judge (the candidate's process never sees it). dynamic=False and a warm call per
    configuration mean no recompiles while timing. A failure is reported (the comparison is
    extra information), not fatal: (None, message)."""
    try:
        import torch._inductor.config as inductor_config

        # In-process compilation: no pool of compile workers left running beside the timing.
        inductor_config.compile_threads = 1
        compiled = torch.compile(baseline_fn, dynamic=False)
        for params in configs:
            compiled(*make_inputs(params, seed))
        device_sync(device)
    except Exception as exc:  # inductor missing a compiler, an unsupported op, ...
        return None, f"{type(exc).__name__}: {exc}".strip().splitlines()[0][:500]
    return compiled, None


def prepare_worker(device: str, prime_trace: bool) -> dict[str, Any]:
    """A worker started ahead of its evaluation (standby.py) does its slow start now, before
    any task or candidate code is known: the device's context and, with the device trace on,
    CUPTI's first session (seconds each)."""
    from agentkernelarena.evaluate.device_trace import DeviceTrace

    if device == "cuda":
        torch.cuda.init()
        torch.empty(1, device=device)
        torch.cuda.synchronize()
    error = DeviceTrace.prime(device) if prime_trace and device == "cuda" else None
    return {"ok": True, "trace_error": error}
