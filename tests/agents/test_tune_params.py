"""The tune agent's parameter finder and rewriter: the bundled Triton kernels, and edge cases."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from agentkernelarena.agents.tune.searcher.params import (
    BLOCK,
    CPU,
    GPU,
    NUM_STAGES,
    NUM_WARPS,
    find_params,
)
from agentkernelarena.agents.tune.searcher.propose import bounds, step
from agentkernelarena.agents.tune.searcher.rewrite import RewriteError, apply, rewrite, verify

SUITE = (Path(__file__).resolve().parents[2] / "src" / "agentkernelarena" / "suites"
         / "triton2triton")
BUNDLED = sorted(p.parent.name for p in SUITE.glob("*/kernel.py"))
HEADER = "import triton\nimport triton.language as tl\n\n\n"


def _source(task: str) -> str:
    return (SUITE / task / "kernel.py").read_text()


def _by_name(found, name: str, kind: str = BLOCK):
    return [p for p in found.params if p.name == name and p.kind == kind]


def _all_up(found) -> dict[str, int]:
    return {p.key: step(p, p.start, 1) for p in found.params}


@pytest.mark.parametrize("task", BUNDLED)
def test_every_bundled_kernel_has_parameters_and_rewrites_cleanly(task: str) -> None:
    source = _source(task)
    found = find_params(source, "kernel.py")
    assert found.kernels and found.params, f"{task}: nothing found"
    values = _all_up(found)
    new = rewrite(source, found.params, values)
    assert new != source
    # Only integers changed (or launch keywords were added): the code around them is the same.
    old_tree, new_tree = ast.parse(source), ast.parse(new)
    old_names = sorted(n.id for n in ast.walk(old_tree) if isinstance(n, ast.Name))
    new_names = sorted(n.id for n in ast.walk(new_tree) if isinstance(n, ast.Name))
    assert old_names == new_names
    # Back to the shipped values gives the shipped source, byte for byte.
    assert rewrite(new, find_params(new, "kernel.py").params, {}) == new
    assert apply(source, found.params, {}) == source


def test_softmax_block_is_one_local_constant_feeding_three_kernels() -> None:
    found = find_params(_source("softmax"), "kernel.py")
    (block,) = _by_name(found, "BLOCK")
    assert block.value == 256 and block.device is None and not block.insert
    assert block.uses == ["_row_max_kernel.BLOCK", "_exp_sum_kernel.BLOCK",
                          "_normalize_kernel.BLOCK"]
    warps = [p for p in found.params if p.kind == NUM_WARPS]
    stages = [p for p in found.params if p.kind == NUM_STAGES]
    assert len(warps) == 3 and all(p.insert for p in warps)
    assert len(stages) == 3  # every softmax kernel loops over its row


def test_device_branches_are_tagged(tmp_path: Path) -> None:
    found = find_params(_source("matmul_bias_relu"), "kernel.py")
    tiles = {(p.name, p.device): p.value for p in found.params if p.kind == BLOCK}
    assert tiles[("BLOCK_M", CPU)] == 64 and tiles[("BLOCK_M", GPU)] == 32
    assert tiles[("BLOCK_K", GPU)] == 32 and tiles[("BLOCK", CPU)] == 4096
    assert tiles[("BLOCK", GPU)] == 1024
    cumsum = find_params(_source("cumsum"), "kernel.py")
    assert {(p.device, p.value) for p in _by_name(cumsum, "BLOCK")} == {(CPU, 1024), (GPU, 256)}


def test_computed_block_sizes_are_skipped_with_a_reason() -> None:
    found = find_params(_source("attention"), "kernel.py")
    assert not _by_name(found, "BLOCK_D")
    assert any("BLOCK_D" in s and "next_power_of_2" in s for s in found.skipped)
    (rows,) = _by_name(found, "BLOCK_R")  # `max(1, 8192 // BLOCK) if cpu else 1`: the 1 only
    assert rows.value == 1 and rows.device == GPU


def test_literal_at_the_launch_and_renamed_constant() -> None:
    column = find_params(_source("column_sum"), "kernel.py")
    (block,) = _by_name(column, "BLOCK_M")
    assert block.value == 256
    quantize = find_params(_source("quantize_int8"), "kernel.py")
    (qblock,) = _by_name(quantize, "QBLOCK")
    assert qblock.uses == ["_quantize_kernel.BLOCK"] and qblock.value == 256


def _find(code: str, **kw):
    source = HEADER + textwrap.dedent(code)
    return source, find_params(source, "k.py", **kw)


def test_positional_module_constant_explicit_warps_and_stages() -> None:
    source, found = _find("""
        WIDTH = 128
        WARPS = 4

        @triton.jit
        def k(x, n, B: tl.constexpr):
            for i in range(n):
                pass

        def f(x, n):
            k[(1,)](x, n, WIDTH, num_warps=WARPS, num_stages=2)
    """)
    kinds = {p.name: (p.kind, p.value, p.insert) for p in found.params}
    assert kinds == {"WIDTH": (BLOCK, 128, False), "WARPS": (NUM_WARPS, 4, False),
                     "num_stages": (NUM_STAGES, 2, False)}
    values = {p.key: {"WIDTH": 256, "WARPS": 8, "num_stages": 3}[p.name] for p in found.params}
    new = rewrite(source, found.params, values)
    assert "WIDTH = 256" in new and "WARPS = 8" in new and "num_stages=3" in new


@pytest.mark.parametrize("code, why", [
    ("def f(x, B):\n    k[(1,)](x, B=B)\n", "a function argument"),
    ("def f(x):\n    B = 64\n    B *= 2\n    k[(1,)](x, B=B)\n", "AugAssign"),
    ("def f(x):\n    for B in (64, 128):\n        k[(1,)](x, B=B)\n", "For"),
    ("def f(x):\n    B = x.shape[0]\n    k[(1,)](x, B=B)\n", "computed"),
])
def test_names_that_are_not_plain_constants_are_not_tunable(code: str, why: str) -> None:
    _, found = _find("@triton.jit\ndef k(x, B: tl.constexpr):\n    pass\n\n\n" + code,
                     launch_options=False)
    assert not found.params
    assert any(why in s for s in found.skipped), found.skipped


def test_inserts_into_empty_and_trailing_comma_launches() -> None:
    source, found = _find("""
        @triton.jit
        def k():
            pass

        @triton.jit
        def j(x, B: tl.constexpr):
            pass

        def f(x):
            k[(1,)]()
            j[(1,)](
                x,
                B=32,
            )
    """)
    values = {p.key: 8 if p.kind == NUM_WARPS else 64 for p in found.params}
    new = rewrite(source, found.params, values)
    assert "k[(1,)](num_warps=8)" in new
    assert "B=64, num_warps=8,\n" in new
    assert "num_stages" not in new  # no loop to pipeline


def test_autotune_config_entries_are_parameters_and_not_inserted() -> None:
    source, found = _find("""
        @triton.autotune(configs=[
            triton.Config({"BLOCK": 128}, num_warps=4),
            triton.Config({"BLOCK": 256}, num_warps=8, num_stages=3),
        ], key=["n"])
        @triton.jit
        def k(x, n, BLOCK: tl.constexpr):
            pass

        def f(x, n):
            k[(1,)](x, n)
    """)
    uses = sorted(u for p in found.params for u in p.uses)
    assert uses == ["k.config[0].BLOCK", "k.config[0].num_warps", "k.config[1].BLOCK",
                    "k.config[1].num_stages", "k.config[1].num_warps"]
    assert not any(p.insert for p in found.params)
    values = {p.key: p.value * 2 for p in found.params}
    new = rewrite(source, found.params, values)
    assert '{"BLOCK": 512}, num_warps=16, num_stages=6' in new


def test_verify_refuses_any_other_difference() -> None:
    source = _source("softmax")
    found = find_params(source, "kernel.py")
    (block,) = _by_name(found, "BLOCK")
    values = {block.key: 512}
    good = apply(source, found.params, values)
    verify(source, good, found.params, values)
    with pytest.raises(RewriteError, match="more than its launch parameters"):
        verify(source, good.replace("tl.exp(", "tl.exp2("), found.params, values)
    with pytest.raises(RewriteError, match="more than its launch parameters"):
        verify(source, source, found.params, values)  # the change is missing
    with pytest.raises(RewriteError, match="does not parse"):
        verify(source, good + "\n)(", found.params, values)
    with pytest.raises(RewriteError, match="positive integer"):
        apply(source, found.params, {block.key: 0})


def test_no_triton_means_nothing_found() -> None:
    found = find_params("import torch\n\ndef forward(x):\n    return x + 1\n", "k.py")
    assert found.params == [] and found.kernels == []


def test_neighbours_stay_on_the_grid() -> None:
    _, found = _find("""
        @triton.jit
        def k(x, B: tl.constexpr):
            for i in range(3):
                pass

        def f(x):
            k[(1,)](x, B=100, num_warps=16)
    """)
    block, warps, stages = (next(p for p in found.params if p.kind == kind)
                            for kind in (BLOCK, NUM_WARPS, NUM_STAGES))
    assert step(block, 100, 1) == 128 and step(block, 100, -1) == 64
    assert bounds(block) == (6, 1600) and step(block, 1024, 1) is None
    assert step(warps, 16, 1) is None and step(warps, 16, -1) == 8
    assert stages.insert and stages.start == 3 and step(stages, 6, 1) is None
    assert step(stages, 1, -1) is None
