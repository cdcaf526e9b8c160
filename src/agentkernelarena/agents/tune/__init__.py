"""`tune`: a baseline agent without a model, a seeded search over launch parameters.

It answers "how much of an agent's speedup would plain tuning have found?": block sizes passed
at Triton launch sites, `num_warps`, `num_stages` and `triton.autotune` config entries, moved
to their neighbours by coordinate descent, each variant measured with the workspace's own
`./check` (visible configurations only, like any agent), the fastest correct one kept. It never
changes what a kernel computes: every variant is verified to differ from the shipped source in
those integers only (`searcher/rewrite.py`).

Like every program agent it runs in the trial's sandbox: the search program (`searcher/`,
standard library only) is copied into the iteration's folder and run there with the arena's
Python, since the arena's own package is hidden inside the sandbox. It runs once per trial
(`iterative = False`); its budget is `max_checks` local checks and the trial's time limit.
"""

from __future__ import annotations

import json
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from agentkernelarena.agents.base import AgentOutcome, AgentRun, DoctorReport
from agentkernelarena.agents.cli_agent import CliAgent, Parsed, json_lines
from agentkernelarena.agents.process import Command, ProcessResult
from agentkernelarena.agents.registry import register_agent
from agentkernelarena.errors import AkaError

SEARCHER = Path(__file__).resolve().parent / "searcher"
PROGRAM_DIR = "tune-program"  # in the iteration's folder, shown read-only in the sandbox
PACKAGE = "aka_tune"
LAUNCHER = '''import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from aka_tune.__main__ import main

sys.exit(main())
'''
# Seconds of the trial's time left that the tuner leaves unused: the arena still has to stop it.
DEADLINE_MARGIN_S = 5.0


@dataclass
class TuneSettings:
    seed: int = 0
    max_checks: int = 32  # local checks in all, the shipped version's included
    min_gain: float = 0.01  # a variant must beat the best so far by this much (relative)
    launch_options: bool = True  # add num_warps / num_stages where a launch does not pass them
    check: str = "./check"


def install_program(out_dir: Path) -> Path:
    """Copy the search program into `out_dir`; the launcher script to run."""
    folder = out_dir / PROGRAM_DIR
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(SEARCHER, folder / PACKAGE,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    launcher = folder / "tune.py"
    launcher.write_text(LAUNCHER)
    return launcher


@register_agent("tune")
class TuneAgent(CliAgent):
    """Searches launch parameters (block sizes, num_warps, num_stages) with ./check; no model."""

    name = "tune"
    Settings = TuneSettings
    executables = ("python",)
    install_hint = "the arena's own Python runs it; reinstall AgentKernelArena"
    iterative = False

    def validate(self) -> None:
        s = self.settings
        if s.max_checks < 1:
            raise AkaError("agent tune: max_checks must be at least 1")
        if s.min_gain < 0:
            raise AkaError("agent tune: min_gain must not be negative")
        if not s.check.strip():
            raise AkaError("agent tune: check is empty", "leave it at ./check")

    def executable(self) -> str | None:
        return sys.executable

    def model_name(self) -> str | None:
        return None

    def build_command(self, executable: str, run: AgentRun) -> Command:
        run.out_dir.mkdir(parents=True, exist_ok=True)
        launcher = install_program(run.out_dir)
        s = self.settings
        limit = max(1.0, run.time_left() - DEADLINE_MARGIN_S)
        argv = [executable, "-B", str(launcher), "--workspace", str(run.workspace),
                "--check", s.check, "--seed", str(s.seed), "--max-checks", str(s.max_checks),
                "--time-limit-s", f"{limit:.1f}", "--min-gain", str(s.min_gain)]
        if not s.launch_options:
            argv.append("--no-launch-options")
        return Command(argv=argv, ro_paths=[launcher.parent])

    def parse(self, result: ProcessResult, run: AgentRun) -> Parsed:
        events, garbage = json_lines(result.stdout())
        summary = next((e for e in reversed(events) if e.get("event") == "summary"), None)
        checks = [e for e in events if e.get("event") == "check"]
        details = {"checks": len(checks), "non_json_lines": garbage}
        if summary is None:
            return Parsed(succeeded=False, turns=len(checks), details=details,
                          errors=["the tuner ended without a summary"])
        details.update({k: v for k, v in summary.items() if k != "event"})
        return Parsed(succeeded=True, turns=len(checks), tokens_in=0, tokens_out=0,
                      tokens_cached=0, cost_usd=0.0, details=details)

    def run(self, run: AgentRun) -> AgentOutcome:
        outcome = super().run(run)
        if outcome.ok and outcome.details.get("message"):
            outcome.message = str(outcome.details["message"])
        return outcome

    def doctor(self) -> DoctorReport:
        report = DoctorReport(agent=self.name, installed=SEARCHER.is_dir(),
                              authenticated=True, executable=sys.executable,
                              version=f"python {sys.version.split()[0]}")
        if not report.installed:
            report.problem(f"{SEARCHER} is missing", self.install_hint)
        return report


def transcript_events(path: Path) -> list[dict[str, object]]:
    """The events of a tune transcript (tests, reports)."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
