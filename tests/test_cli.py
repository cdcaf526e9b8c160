"""The CLI contract of DESIGN.md §11, and one-line errors without tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURE = Path(__file__).parent / "fixtures" / "tasks"


def aka(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "agentkernelarena", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=600)


def test_tasks_list_json():
    proc = aka("tasks", "list", "--json", "--tasks-dir", str(FIXTURE))
    assert proc.returncode == 0, proc.stderr
    tasks = json.loads(proc.stdout)
    ids = {t["id"] for t in tasks}
    assert "triton2triton/scale_add" in ids and "triton2triton/softmax" in ids
    assert all({"id", "category", "language"} <= set(t) for t in tasks)
    only = json.loads(aka("tasks", "list", "--json", "--category", "hip2hip").stdout)
    assert all(t["category"] == "hip2hip" for t in only)


def test_tasks_show_json_has_the_contract_and_no_held_out():
    proc = aka("tasks", "show", "triton2triton/scale_add", "--json", "--tasks-dir", str(FIXTURE))
    info = json.loads(proc.stdout)
    for key in ("id", "category", "language", "entry", "reference", "editable",
                "visible_configs", "held_out_count"):
        assert key in info
    assert info["entry"] == "kernel.py:forward" and info["held_out_count"] == 3
    assert "3001" not in proc.stdout and "5000" not in proc.stdout  # held-out sizes


def test_materialize_writes_the_workspace(tmp_path):
    dest = tmp_path / "ws"
    proc = aka("tasks", "materialize", "triton2triton/scale_add", str(dest),
               "--tasks-dir", str(FIXTURE))
    assert proc.returncode == 0, proc.stderr
    names = {p.name for p in dest.iterdir()}
    assert {"kernel.py", "reference.py", "TASK.md", "check"} <= names
    assert "solution" not in names and "task.yaml" not in names
    everything = "".join(p.read_text() for p in dest.iterdir() if p.is_file())
    assert "3001" not in everything  # no held-out configuration anywhere
    again = aka("tasks", "materialize", "triton2triton/scale_add", str(dest),
                "--tasks-dir", str(FIXTURE))
    assert again.returncode == 2 and "not empty" in again.stderr


def test_eval_json_contract_and_exit_zero_for_a_wrong_kernel(tmp_path):
    solution = tmp_path / "sol"
    solution.mkdir()
    kernel = (FIXTURE / "triton2triton" / "scale_add" / "kernel.py").read_text()
    (solution / "kernel.py").write_text(kernel.replace("x * alpha + y", "x * alpha"))
    proc = aka("eval", "triton2triton/scale_add", "--solution", str(solution), "--json",
               "--platform", "cpu", "--tasks-dir", str(FIXTURE))
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    for key in ("task", "verdict", "compiled", "correct", "speedup", "score", "reasons",
                "held_out"):
        assert key in result
    assert result["verdict"] == "incorrect" and result["speedup"] is None
    assert {"correct", "speedup"} <= set(result["held_out"])


@pytest.mark.parametrize("args,message", [
    (["tasks", "show", "triton2triton/nope"], "unknown task"),
    (["eval", "triton2triton/scale_add", "--solution", "{empty}"], "holds none of the task's"),
    (["eval", "triton2triton/scale_add", "--solution", "{missing}"], "does not exist"),
    (["tasks", "show", "triton2triton/scale_add", "--tasks-dir", "{broken}"],
     "field 'reference': missing"),
])
def test_errors_are_one_line_without_traceback(tmp_path, args, message):
    (tmp_path / "empty").mkdir()
    broken = tmp_path / "broken" / "t"
    broken.mkdir(parents=True)
    text = (FIXTURE / "triton2triton" / "scale_add" / "task.yaml").read_text()
    (broken / "task.yaml").write_text(text.replace("reference: reference.py:reference\n", ""))
    filled = [a.format(empty=tmp_path / "empty", missing=tmp_path / "missing",
                       broken=tmp_path / "broken") for a in args]
    if "--tasks-dir" not in filled:
        filled += ["--tasks-dir", str(FIXTURE)]
    proc = aka(*filled)
    assert proc.returncode == 2
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stderr.startswith("error: ")


def test_demo_prints_a_table_of_baseline_and_solution(tmp_path):
    out = tmp_path / "demo.json"
    proc = aka("demo", "--tasks", "triton2triton/scale_add", "--tasks-dir", str(FIXTURE),
               "--platform", "cpu", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "baseline" in proc.stdout and "solution" in proc.stdout
    assert "triton2triton/scale_add" in proc.stdout and "not comparable" in proc.stdout
    rows = json.loads(out.read_text())
    assert [(r["version"], r["verdict"]) for r in rows] == [("baseline", "ok"), ("solution", "ok")]
