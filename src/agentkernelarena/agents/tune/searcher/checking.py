"""Running the workspace's own check and reading what it printed.

The check is the only measurement the tuner has: the same `./check` an LLM agent is told to
run, which evaluates the workspace on the visible configurations and prints the verdict the
arena will use (`verdict: ok   compiled: True   correct: True   speedup: 1.234x   score: ...`,
then one line per configuration). Nothing of the arena is imported or read besides that text.
"""

from __future__ import annotations

import re
import subprocess
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

_HEAD = re.compile(r"^task (\S+) on (\S+)", re.M)
_VERDICT = re.compile(r"^verdict: (\S+)\s+compiled: (\S+)\s+correct: (\S+)\s+"
                      r"speedup: (\S+)\s+score: (\S+)", re.M)
_CONFIG = re.compile(r"^\s+(\S+): (correct|WRONG)\b(.*)$", re.M)
_YOURS = re.compile(r"yours ([0-9.]+) (us|ms)")
_REASON = re.compile(r"^reason: (.*)$", re.M)


@dataclass
class CheckResult:
    verdict: str | None = None
    correct: bool | None = None
    speedup: float | None = None
    score: float | None = None
    platform: str | None = None
    comparable: bool = True
    configs: list[dict[str, Any]] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    error: str | None = None
    timed_out: bool = False
    wall_s: float = 0.0
    tail: str = ""

    @property
    def ok(self) -> bool:
        return self.verdict == "ok" and bool(self.correct) and self.speedup is not None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _number(text: str) -> float | None:
    try:
        return float(text.rstrip("x"))
    except ValueError:
        return None


def parse(text: str) -> CheckResult:
    """The check's printed summary as fields; `error` when it holds no verdict line."""
    result = CheckResult(tail=text.strip()[-600:])
    head = _HEAD.search(text)
    if head:
        result.platform = head.group(2)
        result.comparable = "not comparable" not in text.splitlines()[0]
    match = _VERDICT.search(text)
    if not match:
        first = text.strip().splitlines()[:1]
        result.error = first[0][:300] if first else "the check printed nothing"
        return result
    result.verdict = match.group(1)
    result.correct = match.group(3) == "True"
    result.speedup = _number(match.group(4))
    result.score = _number(match.group(5))
    for name, state, rest in _CONFIG.findall(text):
        config: dict[str, Any] = {"name": name, "correct": state == "correct"}
        yours = _YOURS.search(rest)
        if yours:
            scale = 1e-3 if yours.group(2) == "us" else 1.0
            config["ms"] = round(float(yours.group(1)) * scale, 6)
        result.configs.append(config)
    result.reasons = [r[:300] for r in _REASON.findall(text)]
    return result


def run_check(argv: list[str], cwd: Path, timeout: float) -> CheckResult:
    """Run the check command in the workspace, at most `timeout` seconds."""
    started = time.monotonic()
    try:
        done = subprocess.run(argv, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, errors="replace", timeout=max(1.0, timeout))
    except subprocess.TimeoutExpired:
        return CheckResult(error=f"the check ran past {timeout:.0f} s", timed_out=True,
                           wall_s=round(time.monotonic() - started, 3))
    except OSError as exc:
        return CheckResult(error=f"cannot run {' '.join(argv)}: {exc}",
                           wall_s=round(time.monotonic() - started, 3))
    # stderr only matters when stdout holds no verdict (a crash of the check itself).
    text = done.stdout if _VERDICT.search(done.stdout) else done.stdout + "\n" + done.stderr
    result = parse(text)
    result.wall_s = round(time.monotonic() - started, 3)
    if result.error and done.returncode != 0:
        result.error = f"exit {done.returncode}: {result.error}"
    return result

