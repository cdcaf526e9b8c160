"""What the HTML report shows when a trial is opened: verdict and reasons, the agent's diff, the
iterations (outcome, local checks, transcript) and the visible configurations.

Files are read only from inside the trial's own folder (a record's transcript path is a hint:
a moved run folder, or a hostile record pointing at /etc, falls back to the iteration folder),
and long files are cut to their head and tail so a report of a big run stays a few MB. The text
is returned raw; the template escapes it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

TRANSCRIPT_BYTES = 24_000  # per file: the first and the last half of it
DIFF_BYTES = 60_000
TRANSCRIPT_NAMES = ("transcript.jsonl", "stdout.log", "console.log", "trajectory.json")


def _inside(path: Path, folder: Path) -> bool:
    try:
        return path.resolve().is_relative_to(folder.resolve())
    except (OSError, ValueError):
        return False


def read_text(path: Path | None, folder: Path, limit: int) -> str | None:
    """The clipped text of `path` if it is a file inside `folder`, else None: its whole text
    under `limit` bytes, else its first and last `limit // 2` bytes around a note."""
    if path is None or not _inside(path, folder) or not path.is_file():
        return None
    try:
        with open(path, "rb") as fh:
            size = fh.seek(0, 2)
            fh.seek(0)
            if size <= limit:
                return fh.read().decode("utf-8", errors="replace")
            half = limit // 2
            head = fh.read(half)
            fh.seek(size - half)
            tail = fh.read(half)
    except OSError:
        return None
    return (f"{head.decode('utf-8', errors='replace')}\n\n[... {size - 2 * half:,} bytes cut: "
            f"the file has {size:,} ...]\n\n{tail.decode('utf-8', errors='replace')}")


def _transcript(outcome: dict[str, Any], folder: Path, trial_dir: Path, limit: int
                ) -> tuple[str | None, str | None]:
    """(file name, text) of an iteration's transcript."""
    recorded = outcome.get("transcript")
    candidates = []
    if recorded:
        candidates += [Path(recorded), folder / Path(recorded).name]
    candidates += [folder / name for name in TRANSCRIPT_NAMES]
    for path in candidates:
        text = read_text(path, trial_dir, limit)
        if text is not None:
            return path.name, text
    return None, None


def _iteration(entry: dict[str, Any], trial_dir: Path, limit: int) -> dict[str, Any]:
    index = entry.get("index")
    folder = trial_dir / "iterations" / str(index)
    outcome = entry.get("outcome") or {}
    name, transcript = _transcript(outcome, folder, trial_dir, limit)
    check = entry.get("check") or None
    return {
        "index": index,
        "failure": outcome.get("failure"),
        "exit_code": outcome.get("exit_code"),
        "wall_s": outcome.get("wall_s"),
        "message": outcome.get("message") or "",
        "tokens": (outcome.get("tokens_in"), outcome.get("tokens_out")),
        "cost_usd": outcome.get("cost_usd"),
        "agent_checks": [c for c in entry.get("agent_checks") or [] if isinstance(c, dict)],
        "check": check if isinstance(check, dict) else None,
        "transcript_name": name,
        "transcript": transcript,
        "stderr": read_text(folder / "stderr.log", trial_dir, limit // 4),
        "prompt": read_text(folder / "prompt.md", trial_dir, limit // 2),
    }


def trial_detail(record: dict[str, Any], limit: int = TRANSCRIPT_BYTES) -> dict[str, Any]:
    """The opened trial: everything the template needs, never raising on an odd record."""
    trial_dir = Path(record.get("_dir") or ".")
    evaluation = record.get("evaluation") or {}
    iterations = [_iteration(e, trial_dir, limit) for e in record.get("iterations") or []
                  if isinstance(e, dict)]
    configs = [c for c in evaluation.get("configs") or [] if isinstance(c, dict)]
    diff = read_text(trial_dir / "patch.diff", trial_dir, DIFF_BYTES)
    return {
        "iterations": iterations,
        "configs": configs,
        "diff": diff,
        "diff_recorded": (trial_dir / "patch.diff").is_file(),
        "held_out_configs": [c for c in (record.get("held_out") or {}).get("configs") or []
                             if isinstance(c, dict)],
    }
