"""The device-trace rules on synthetic traces: honest rounds pass; side streams, foreign
kernels, kernels outside the window, forged readings and a stopped trace are named."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from agentkernelarena.evaluate.trace_rules import (
    base_name,
    candidate_problems,
    own_kernel_names,
    read_trace,
    trace_verdict,
)

MS = 1_000_000  # ns


def _trace(rounds=8, call_ms=0.5, stream=7, extra=None, staging=True, name="_scale_add",
           drop_marks=0, host_delay_ns=2000):
    """(kernels as [name, stream, start, end], reported ms) for rounds laid out like the
    harness's: flush, staging, pad, the call's kernel, the end mark."""
    rows, t = [], 0
    for index in range(rounds):
        rows.append(["void at::native::vectorized_elementwise_kernel<4, FillFunctor<unsigned "
                     "char>>(int, FillFunctor<unsigned char>)", stream, t, t + MS // 10])
        t += MS
        if staging:
            rows.append(["void at::native::(anonymous namespace)::distribution_elementwise_"
                         "grid_stride_kernel<float, 4>(int)", stream, t, t + MS // 20])
            t += MS
        rows.append(["at::cuda::(anonymous namespace)::spin_kernel(long)", stream, t, t + MS])
        t += MS + 2000
        rows.append([name, stream, t, t + int(call_ms * MS)])
        t += int(call_ms * MS) + host_delay_ns
        if index >= drop_marks:
            rows.append(["at::cuda::(anonymous namespace)::spin_kernel(long)", stream, t,
                         t + 500])
        t += MS
    rows += extra(rows) if extra else []
    return rows, [call_ms + 0.002] * rounds


def _write(path: Path, rows) -> Path:
    names = sorted({r[0] for r in rows})
    path.write_text(json.dumps({"names": names,
                                "kernels": [[names.index(r[0]), *r[1:]] for r in rows]}))
    return path


def _kernels(tmp_path, rows, name="t.json"):
    return read_trace(_write(tmp_path / name, rows))


def test_honest_rounds_pass(tmp_path):
    rows, ms = _trace()
    assert candidate_problems(_kernels(tmp_path, rows), ms, {"_scale_add"}, True) == []


def test_idle_device_between_the_marks_is_no_false_alarm(tmp_path):
    """A loaded host enqueues the end mark late: the marks' window holds 60 us of idle device
    the events rightly do not count (seen on an H200 with 8 evaluations at once)."""
    rows, ms = _trace(call_ms=0.1, host_delay_ns=60_000)
    assert candidate_problems(_kernels(tmp_path, rows), ms, {"_scale_add"}, True) == []
    # The kernels' own span still tells a forged reading, however idle the device was.
    forged = [m * 0.8 for m in ms]
    problems = candidate_problems(_kernels(tmp_path, rows), forged, {"_scale_add"}, True)
    assert problems and "not what the device ran" in problems[0]


def test_forged_readings_side_streams_foreign_and_outside_kernels_are_named(tmp_path):
    rows, ms = _trace()
    forged = [m / 10 for m in ms]
    problems = candidate_problems(_kernels(tmp_path, rows), forged, {"_scale_add"}, True)
    assert problems and "not what the device ran" in problems[0]

    def side(rows):
        call = next(r for r in rows if r[0] == "_scale_add")
        return [["_scale_add", 9, call[2], call[3]]]
    rows, ms = _trace(extra=side)
    problems = candidate_problems(_kernels(tmp_path, rows), ms, {"_scale_add"}, True)
    assert problems and "another stream" in problems[0]

    rows, ms = _trace(name="void at::native::reduce_kernel<512, 1>(ReduceOp)")
    problems = candidate_problems(_kernels(tmp_path, rows), ms, {"_scale_add"}, True)
    assert problems and "none of its own kernels" in problems[0]
    # A task that lets the entry compute with PyTorch allows it.
    assert candidate_problems(_kernels(tmp_path, rows), ms, {"_scale_add"}, False) == []

    def before(rows):
        pad = next(r for r in rows if "spin_kernel" in r[0])
        return [["_scale_add", pad[1], pad[2] - MS // 2, pad[2] - MS // 4]]
    rows, ms = _trace(extra=before)
    problems = candidate_problems(_kernels(tmp_path, rows), ms, {"_scale_add"}, True)
    assert problems and "outside its timed calls" in problems[0]
    # Not a kernel of the editable files by name, and none the judge's staging runs.
    rows, ms = _trace(extra=lambda rows: [["hidden_kernel_0d1d", 7, 1, 2]])
    problems = candidate_problems(_kernels(tmp_path, rows), ms, {"_scale_add"}, True,
                                  staging=set())
    assert problems and "hidden_kernel_0d1d" in problems[0]


def test_a_trace_that_stopped_or_is_missing_rejects(tmp_path):
    rows, ms = _trace(drop_marks=3)
    problems = candidate_problems(_kernels(tmp_path, rows), ms, {"_scale_add"}, True)
    assert problems and "marks" in problems[0]
    judge_rows, judge_ms = _trace()
    judge = _write(tmp_path / "judge.json", judge_rows)
    problems, fields = trace_verdict(judge, tmp_path / "absent.json", judge_ms, judge_ms,
                                     {"_scale_add"}, True)
    assert problems and "could not be read" in problems[0]
    assert fields["device_trace"]["checked"]


def test_a_broken_judge_trace_turns_the_rules_off(tmp_path):
    """Where the harness's own trace does not come out right, nothing is judged (no false
    alarm), and the record says why."""
    judge_rows, judge_ms = _trace(drop_marks=8)
    runner_rows, runner_ms = _trace(name="anything")
    problems, fields = trace_verdict(_write(tmp_path / "j.json", judge_rows),
                                     _write(tmp_path / "r.json", runner_rows), judge_ms,
                                     [m / 10 for m in runner_ms], {"_scale_add"}, True)
    assert problems == []
    assert fields["device_trace"]["checked"] is False
    assert "baseline's own trace" in fields["device_trace"]["why"]


def test_hostile_trace_files_are_refused(tmp_path):
    from agentkernelarena.evaluate.trace_rules import TraceError

    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(TraceError, match="not JSON"):
        read_trace(tmp_path / "bad.json")
    (tmp_path / "shape.json").write_text(json.dumps({"names": ["a"], "kernels": [[5, 1, 2, 3]]}))
    with pytest.raises(TraceError, match="layout"):
        read_trace(tmp_path / "shape.json")
    os.symlink("/etc/passwd", tmp_path / "link.json")
    with pytest.raises(TraceError):
        read_trace(tmp_path / "link.json")
    os.mkfifo(tmp_path / "fifo.json")
    with pytest.raises(TraceError, match="regular file"):
        read_trace(tmp_path / "fifo.json")


def test_kernel_names(tmp_path):
    assert base_name("void ns::softmax_kernel<float, 4>(float const*, int)") == "softmax_kernel"
    assert base_name("_layernorm_fwd") == "_layernorm_fwd"
    (tmp_path / "kernel.py").write_text(
        "import triton\n@triton.autotune(configs=[], key=[])\n@triton.jit\ndef _k(x):\n  pass\n"
        "@jit\ndef _j(x):\n  pass\ndef launcher(x):\n  pass\n"
        "SRC = '__global__ void inline_kernel(float* x) {}'\n")
    (tmp_path / "k.cu").write_text("template <int B>\n__global__ void __launch_bounds__(256) "
                                   "tiled(float* x) {}\n__global__ void plain(int n) {}\n")
    assert own_kernel_names(tmp_path, ["kernel.py", "k.cu", "missing.cu"]) == {
        "_k", "_j", "inline_kernel", "tiled", "plain"}
