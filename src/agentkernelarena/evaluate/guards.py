"""First-line guards in the candidate's process, around each of its calls (docs/integrity.md).

They live where the candidate can reach them, so they prove nothing by staying silent; they
exist to tell an honest candidate which rule it broke. What decides is outside that process:
the judge's comparisons and the supervisor's clock (witness.py).

- `LaunchCounter`: every Triton launch is counted (and its stream noted); a candidate call that
  launches no kernel of the task's language did its work some other way.
- `OpAudit`: a dispatch mode that records the aten operators a candidate call runs. The entry
  may allocate, view and reshape with PyTorch; computing the result with it (or by calling the
  reference) is what the task forbids.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import torch
from torch.utils._python_dispatch import TorchDispatchMode, _disable_current_modes

# aten operators an entry may run itself: allocation, initialisation, views and metadata.
ALLOWED_OPS = frozenset({
    "empty", "empty_like", "empty_strided", "new_empty", "new_empty_strided",
    "zeros", "zeros_like", "new_zeros", "ones", "ones_like", "new_ones", "full", "full_like",
    "new_full", "fill_", "zero_", "arange", "scalar_tensor", "lift_fresh",
    "view", "_unsafe_view", "_reshape_alias", "reshape", "view_as", "as_strided", "permute",
    "transpose", "t", "expand", "expand_as", "select", "slice", "unsqueeze", "squeeze", "alias",
    "detach", "split", "split_with_sizes", "chunk", "unbind", "narrow", "movedim", "unflatten",
    "flatten", "view_as_real", "view_as_complex", "sym_size", "sym_stride", "sym_numel",
    "sym_storage_offset", "_local_scalar_dense", "is_same_size", "record_stream",
})


class LaunchCounter:
    """Counts Triton kernel launches, on the GPU and under the interpreter alike."""

    def __init__(self, device: str) -> None:
        self.device = device
        self.count = 0
        self.foreign_streams = 0
        self.installed = False
        self._expected_stream: int | None = None

    def install(self) -> None:
        try:
            from triton.runtime.jit import JITFunction
        except ImportError:
            return
        classes: list[type] = [JITFunction]
        try:
            from triton.runtime.interpreter import InterpretedFunction

            classes.append(InterpretedFunction)
        except ImportError:
            pass
        for cls in classes:
            cls.run = self._wrap(cls.run)  # type: ignore[method-assign]
        self.installed = True

    def _wrap(self, original: Any) -> Any:
        counter = self

        def run(fn_self: Any, *args: Any, **kwargs: Any) -> Any:
            counter.count += 1
            if counter.device == "cuda" and counter._expected_stream is not None:
                if torch.cuda.current_stream().cuda_stream != counter._expected_stream:
                    counter.foreign_streams += 1
            # Triton's own launch machinery may use torch; it is not the candidate's compute.
            with _disable_current_modes():
                return original(fn_self, *args, **kwargs)

        run.__wrapped__ = original  # type: ignore[attr-defined]
        return run

    def reset(self) -> None:
        self.count = 0
        self.foreign_streams = 0
        if self.device == "cuda":
            self._expected_stream = torch.cuda.current_stream().cuda_stream


class OpAudit(TorchDispatchMode):
    """Records aten operators outside `ALLOWED_OPS` run while it is active."""

    def __init__(self) -> None:
        super().__init__()
        self.disallowed: Counter[str] = Counter()

    @classmethod
    def _should_skip_dynamo(cls) -> bool:
        # Newer torch wraps dispatch handlers to keep Dynamo out of them, which imports Dynamo
        # (seconds) and patches torch.manual_seed; this mode never runs under torch.compile.
        return False

    def __torch_dispatch__(self, func: Any, types_: Any, args: Any = (),
                           kwargs: Any = None) -> Any:
        name = func.__name__.split(".")[0]
        if name not in ALLOWED_OPS:
            self.disallowed[f"{func.namespace}.{name}"] += 1
        return func(*args, **(kwargs or {}))
