"""benchmarks/run_scaling.py's comparison, on the H200 runs committed beside it (no GPU, no run)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
H200 = ROOT / "benchmarks/results/h200-run-scaling-2026-11-30/all-51-tasks"


def compare(out: Path, one: Path, two: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    subprocess.run([sys.executable, str(ROOT / "benchmarks/run_scaling.py"), "--out", str(out),
                    "--runs", "--no-warmup", "--with", str(one), str(two)],
                   check=True, capture_output=True, text=True, env=env)
    return json.loads((out / "scaling.json").read_text())


def test_ratio_deviation_and_a_ratio_too_good_to_be_true(tmp_path):
    result = compare(tmp_path, H200 / "slots-1.json", H200 / "slots-2.json")
    assert result["throughput_ratio"] == round(376.7 / 182.6, 3)
    assert result["paired_trials"] == 51
    assert 0 < result["speedup_deviation_median"] < result["speedup_deviation_max"] < 0.01
    assert "ratio above 2x" in result["warning"]
    assert "**warning**" in (tmp_path / "scaling.md").read_text()


def test_a_plausible_ratio_carries_no_warning(tmp_path):
    repeat = json.loads((H200 / "slots-1.json").read_text()) | {"wall_s": 337.8}
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "slots-1.json").write_text(json.dumps(repeat))
    result = compare(tmp_path / "out", tmp_path / "runs" / "slots-1.json", H200 / "slots-2.json")
    assert result["throughput_ratio"] == round(337.8 / 182.6, 3)
    assert "warning" not in result
