"""Result files (trial.json, manifest.json, summary.json, held-out re-draws) are written with
the mode the umask gives, as any other file: readable by the group and others by default."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from run_helpers import write_config

from agentkernelarena.runner.record import write_json_atomic


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("umask", [0o022, 0o002, 0o077])
def test_atomic_json_follows_the_umask(tmp_path: Path, umask: int):
    old = os.umask(umask)
    try:
        write_json_atomic(tmp_path / "a" / "x.json", {"n": 1})
        write_json_atomic(tmp_path / "a" / "x.json", {"n": 2})  # replacing keeps following it
    finally:
        os.umask(old)
    assert _mode(tmp_path / "a" / "x.json") == 0o666 & ~umask
    assert (tmp_path / "a" / "x.json").read_text().strip().endswith("}")
    assert [p.name for p in (tmp_path / "a").iterdir()] == ["x.json"]  # no temporary left


def test_a_runs_files_follow_the_umask(tmp_path: Path):
    config = write_config(tmp_path / "run.yaml", agents=["noop"])
    out = tmp_path / "out"
    done = subprocess.run(
        ["sh", "-c", f"umask 027 && exec {sys.executable} -m agentkernelarena run -c {config} "
                     f"--out {out} --progress plain"], capture_output=True, text=True,
        timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    for path in (out / "manifest.json", out / "summary.json",
                 next((out / "trials").glob("*/trial.json"))):
        assert _mode(path) == 0o640, path
