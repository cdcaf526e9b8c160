"""Every native task's baseline and solution, run on the CPU emulator against the reference.

No GPU here, so the kernels' logic (indexing, bounds, barriers, shuffles, every launch path)
is checked by running the real source under tests/native/emu/aka_emu.h, on the task's small
`cpu` configurations (visible and held-out), with a 32-lane warp and, for HIP sources, a
64-lane wavefront too. Slow (a g++ build per source and warp size, a thread per GPU thread).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import torch
from suite_helpers import NATIVE, as_tuple, module_from_path, upcast

from agentkernelarena.native import hip_to_cuda

pytestmark = pytest.mark.slow
HERE = Path(__file__).parent

# HIP sources run as written with 64- and 32-lane wavefronts, and translated to CUDA (what an
# NVIDIA machine builds) with 32-lane warps.
CASES = [
    pytest.param(task, variant, form, warp, id=f"{task.id}-{variant}-{form}-w{warp}")
    for task in NATIVE
    # A task may ship no solution (no demonstrated headroom, CONTRIBUTING.md).
    for variant in (("baseline", "solution") if task.solution_dir else ("baseline",))
    for form, warp in (
        (("hip", 64), ("hip", 32), ("translated", 32))
        if task.language == "hip"
        else (("cuda", 32),)
    )
]



emulator = module_from_path(HERE / "emulator.py", "aka_native_emulator")
# Drivers: emu_drivers.py plus one emu_drivers_<category>.py per task family, each a DRIVERS
# dict keyed by task id (one file per family keeps families from editing the same file).
DRIVERS: dict[str, Any] = {}
for _path in sorted(HERE.glob("emu_drivers*.py")):
    DRIVERS.update(module_from_path(_path, f"aka_native_{_path.stem}").DRIVERS)



def _copies(args: tuple) -> tuple:
    return tuple(a.clone() if isinstance(a, torch.Tensor) else a for a in args)


def _close(out: torch.Tensor, ref: torch.Tensor, atol: float, rtol: float) -> str | None:
    if out.shape != ref.shape:
        return f"shape {tuple(out.shape)} != {tuple(ref.shape)}"
    got, want = out.double(), ref.double()
    # As the evaluator's comparison: an infinity matches the same infinity, a NaN nothing.
    same_inf = torch.isinf(got) & (got == want)
    diff = torch.where(same_inf, torch.zeros_like(got), (got - want).abs())
    bad = ~(diff <= atol + rtol * want.abs()) & ~same_inf  # NaN differences are bad
    if bool(bad.any()):
        index = tuple(int(i) for i in torch.nonzero(bad)[0])
        shown = diff[bad]
        return f"{int(bad.sum())} elements off, max abs err {float(shown.max()):.3g} at {index}"
    return None


@pytest.mark.parametrize(("task", "variant", "form", "warp"), CASES)
def test_kernel_matches_the_reference_on_the_emulator(
    task: Any, variant: str, form: str, warp: int, tmp_path: Path
) -> None:
    if emulator.compiler() is None:
        pytest.skip("needs g++")
    driver = DRIVERS.get(task.id)
    if driver is None:
        pytest.fail(
            f"no emulator driver for {task.id}: add one to "
            f"tests/native/emu_drivers_{task.category}.py (a DRIVERS dict keyed by task id)"
        )
    source = task.root / task.editable[0]
    if variant == "solution":
        assert task.solution_dir is not None, f"{task.id} has no solution"
        source = task.solution_dir / task.editable[0]
    if form == "translated":
        cuda, _ = hip_to_cuda(source.read_text())
        source = tmp_path / "translated" / "kernel.cu"
        source.parent.mkdir()
        source.write_text(cuda)
    launchers = emulator.build(source, task.root / "binding.cpp", tmp_path, warp_size=warp)
    ref_module = module_from_path(task.root / task.reference.file)
    make_inputs = getattr(ref_module, task.inputs.function)
    reference = getattr(ref_module, task.reference.function)
    configs = task.cpu_visible + task.cpu_held_out
    assert configs, f"{task.id} needs cpu configurations for this test"
    for config in configs:
        args = make_inputs(config.params, 1234, "cpu")
        # An in-place task's kernel (and reference) change their inputs: each reference call
        # gets its own copy of them as they were made.
        pristine = _copies(args) if task.in_place else args
        outs = as_tuple(driver(launchers, *args))
        first, second = (_copies(pristine), _copies(pristine)) if task.in_place \
            else (pristine, pristine)
        refs = as_tuple(reference(*upcast(first, task.reference_upcast)))
        typed = as_tuple(reference(*second))
        assert len(outs) == len(refs), f"{config.name}: {len(outs)} outputs, expected {len(refs)}"
        for index, (out, ref, want) in enumerate(zip(outs, refs, typed, strict=True)):
            where = f"{task.id} {variant} {form} w{warp} {config.name} output {index}"
            assert out.dtype == want.dtype, f"{where}: dtype {out.dtype}, expected {want.dtype}"
            tol = task.tolerance[str(out.dtype).removeprefix("torch.")]
            problem = _close(out, ref, tol.atol, tol.rtol)
            assert problem is None, f"{where}: {problem}"
