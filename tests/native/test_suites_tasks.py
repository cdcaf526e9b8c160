"""The native tasks' data: layout, configurations, references and eager baselines, on the CPU.

Fast (no compiler): what the arena's CPU path cannot check for a native task, since it stops
at the compile-only gate.
"""

from __future__ import annotations

from typing import Any

import pytest
import torch
from suite_helpers import NATIVE, as_tuple, module_from_path, upcast

from agentkernelarena.evaluate.compare import identical
from agentkernelarena.native import check_warp_size
from agentkernelarena.native.sources import launcher_declarations

IDS = [t.id for t in NATIVE]
SUFFIX = {"cuda": ".cu", "hip": ".hip"}


def _same(a: Any, b: Any) -> bool:
    return identical(a, b) if isinstance(a, torch.Tensor) else a == b



@pytest.mark.parametrize("task", NATIVE, ids=IDS)
def test_layout_and_configurations(task: Any) -> None:
    (source,) = task.editable
    assert source == f"kernel{SUFFIX[task.language]}"
    assert task.category.endswith(task.language) or task.category.startswith("torch2")
    for name in ("binding.cpp", "kernel.py", "reference.py", source):
        assert (task.root / name).is_file(), f"{task.id}: {name} missing"
    # A solution is shipped only where it is faster everywhere (tasks check's headroom rule).
    if task.solution_dir is not None:
        assert (task.solution_dir / source).is_file(), f"{task.id}: solution/{source} missing"
    entry = (task.root / "kernel.py").read_text()
    assert f'load(__file__, ["{source}"], binding="binding.cpp")' in entry
    assert len(task.visible) >= 3 and len(task.held_out) >= 3
    assert task.held_out_draws is not None and task.held_out_draws.count >= 1
    assert task.cpu_visible and task.cpu_held_out, "cpu configurations run the emulator tests"
    assert task.hardware_notes and task.bytes_expr
    if task.category.startswith("torch2"):
        assert (task.root / "baseline.py").is_file(), "torch2* tasks keep their eager baseline"


@pytest.mark.parametrize("task", NATIVE, ids=IDS)
def test_sources_define_what_the_binding_declares(task: Any) -> None:
    declared = [name for _, name, _ in launcher_declarations(task.root / "binding.cpp")]
    assert declared, f'{task.id}: binding.cpp declares no extern "C" launcher'
    folders = [task.root] + ([task.solution_dir] if task.solution_dir is not None else [])
    for path in (folder / task.editable[0] for folder in folders):
        text = path.read_text()
        for name in declared:
            assert f'extern "C" int {name}(' in text, f"{path}: no definition of {name}"
        assert "torch/" not in text and "ATen/" not in text
        if task.language == "hip":
            assert check_warp_size(text) == [], f"{path}: warp-size lint"



@pytest.mark.parametrize("task", NATIVE, ids=IDS)
def test_reference_and_inputs_run_on_the_cpu(task: Any) -> None:
    module = module_from_path(task.root / task.reference.file)
    make_inputs = getattr(module, task.inputs.function)
    reference = getattr(module, task.reference.function)
    for config in task.cpu_visible + task.cpu_held_out:
        first = make_inputs(config.params, 1, "cpu")
        again = make_inputs(config.params, 1, "cpu")
        other = make_inputs(config.params, 2, "cpu")
        tensors = [a for a in first if isinstance(a, torch.Tensor)]
        assert all(_same(a, b) for a, b in zip(first, again, strict=True))
        assert any(not _same(a, b) for a, b in zip(first, other, strict=True))
        # The timer refills one set of input buffers from inputs of several seeds in place:
        # every seed must give the same shapes and dtypes.
        shapes = [(tuple(a.shape), a.dtype) for a in first if isinstance(a, torch.Tensor)]
        assert shapes == [(tuple(a.shape), a.dtype) for a in other if isinstance(a, torch.Tensor)]
        floats = [a for a in tensors if a.is_floating_point()]
        # NaN and inf on purpose in some (histogram): the spread of the finite values.
        assert tensors and all(a[torch.isfinite(a)].double().std() > 0
                              for a in floats if a.numel() > 1)
        outs = as_tuple(reference(*first))
        upcasts = as_tuple(reference(*upcast(first)))
        for out, wide in zip(outs, upcasts, strict=True):
            assert out.shape == wide.shape and torch.isfinite(wide).all()
            assert str(out.dtype).removeprefix("torch.") in task.tolerance


@pytest.mark.parametrize("task", [t for t in NATIVE if t.category.startswith("torch2")],
                         ids=[t.id for t in NATIVE if t.category.startswith("torch2")])  # fmt: skip
def test_eager_baseline_is_within_tolerance(task: Any) -> None:
    ref_module = module_from_path(task.root / task.reference.file)
    baseline = module_from_path(task.root / "baseline.py").forward
    for config in task.cpu_visible + task.cpu_held_out:
        args = getattr(ref_module, task.inputs.function)(config.params, 7, "cpu")
        outs = as_tuple(baseline(*args))
        refs = as_tuple(getattr(ref_module, task.reference.function)(
            *upcast(args, task.reference_upcast)))
        typed = as_tuple(getattr(ref_module, task.reference.function)(*args))
        for out, ref, want in zip(outs, refs, typed, strict=True):
            tol = task.tolerance[str(out.dtype).removeprefix("torch.")]
            assert out.dtype == want.dtype
            torch.testing.assert_close(out.double(), ref.double(), atol=tol.atol, rtol=tol.rtol)
