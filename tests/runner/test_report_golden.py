"""Golden files: every report format of a recorded run folder (tests/fixtures/runs/ab-cpu).

The outputs are byte-for-byte repeatable (seeded bootstrap, no clocks, no random jitter in the
plots); the run folder's path and the arena's version are replaced by placeholders.
AKA_UPDATE_GOLDEN=1 rewrites the files after a deliberate change (review the diff)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from agentkernelarena import __version__

RUNS = Path(__file__).resolve().parents[1] / "fixtures" / "runs"
GOLDEN = RUNS / "golden"
CASES = {
    "report.json": ("report", "{run}", "--format", "json"),
    "report.md": ("report", "{run}", "--format", "md"),
    "report.csv": ("report", "{run}", "--format", "csv"),
    "report.html": ("report", "{run}", "--format", "html"),
    "compare.md": ("compare", "{run}", "{run}", "--agent-a", "noop", "--agent-b", "solution",
                   "--format", "md", "--min-tasks", "2"),
    "compare.json": ("compare", "{run}", "{run}", "--agent-a", "noop", "--agent-b",
                     "solution", "--format", "json"),
    "compare.html": ("compare", "{run}", "{run}", "--agent-a", "noop", "--agent-b",
                     "solution", "--format", "html"),
    "leaderboard.md": ("leaderboard", "{run}", "--format", "md"),
    "leaderboard.html": ("leaderboard", "{run}", "--format", "html"),
}


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy (its path differs from run to run: replaced by RUN in the outputs)."""
    target = tmp_path_factory.mktemp("recorded") / "ab-cpu"
    shutil.copytree(RUNS / "ab-cpu", target)
    return target


def _normalize(text: str, run: Path) -> str:
    return text.replace(str(run), "RUN").replace(f"AgentKernelArena {__version__}",
                                                 "AgentKernelArena VERSION")


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name: str, recorded: Path, aka):
    code, out, err = aka(*(a.format(run=recorded) for a in CASES[name]))
    assert code == 0, err
    text = _normalize(out, recorded)
    path = GOLDEN / name
    if os.environ.get("AKA_UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(text.encode())
    assert path.exists(), f"no golden file {path}: run with AKA_UPDATE_GOLDEN=1"
    assert text == path.read_bytes().decode(), f"{name} changed: AKA_UPDATE_GOLDEN=1 rewrites it"


def test_bad_input_reports_the_rest(recorded: Path, tmp_path: Path, aka):
    """A corrupt record and an interrupted trial: named, and the rest reported."""
    broken = tmp_path / "broken"
    shutil.copytree(recorded, broken)
    record = broken / "trials" / "noop__triton2triton__scale_add__1" / "trial.json"
    record.write_text(record.read_text()[:100])
    shutil.rmtree(broken / "trials" / "solution__triton2triton__scale_add__1")
    code, out, _ = aka("report", str(broken), "--format", "html")
    assert code == 0 and "Could not read 1 trial record(s)" in out
    assert "noop__triton2triton__scale_add__1" in out
    assert "1 planned trial(s) have not finished" in out
    assert out.count('<tbody class="trial"') == 2
    code, out, _ = aka("report", str(broken))
    assert code == 0 and "unreadable records: noop__triton2triton__scale_add__1" in out
    code, out, _ = aka("compare", str(broken), str(broken), "--agent-a", "noop", "--agent-b",
                       "solution")
    assert code == 0 and "1 unreadable trial record(s)" in out
