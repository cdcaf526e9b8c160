"""Reading a run folder: the manifest, the finished trials, and what is missing.

Reports read only files (never a running runner), so a run can be reported while it runs, after
it was killed, or years later: the finished trials are the complete trial.json files, and the
manifest's plan says which trials are still missing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentkernelarena.errors import AkaError
from agentkernelarena.report.redraws import load_redraws
from agentkernelarena.runner.manifest import MANIFEST, read_manifest
from agentkernelarena.runner.plan import TRIAL_JSON, TRIALS, TrialKey, read_trial


@dataclass
class RunData:
    path: Path
    manifest: dict[str, Any]
    records: list[dict[str, Any]]  # finished trials' trial.json, in plan order
    missing: list[dict[str, Any]] = field(default_factory=list)  # plan entries without result
    unreadable: list[str] = field(default_factory=list)  # trial folders with a broken record
    errors: dict[str, str] = field(default_factory=dict)  # unreadable id -> what is wrong
    redraws: list[dict[str, Any]] = field(default_factory=list)  # `aka heldout` results
    redraws_unreadable: list[dict[str, str]] = field(default_factory=list)

    @property
    def label(self) -> str:
        return self.manifest.get("label") or self.path.name

    @property
    def planned(self) -> int:
        return len(self.manifest.get("plan", []))


def load_run(path: Path) -> RunData:
    path = Path(path)
    if not path.is_dir():
        raise AkaError(f"run folder {path}: no such folder")
    manifest = read_manifest(path)
    if manifest is None:
        raise AkaError(f"{path} is not a run folder (no {MANIFEST})",
                       "pass the --out folder of an `aka run`")
    records, missing, unreadable = [], [], []
    errors: dict[str, str] = {}
    for entry in manifest.get("plan", []):
        key = TrialKey(entry["agent"], entry["task"], int(entry["attempt"]))
        folder = path / TRIALS / entry["id"]
        record = read_trial(folder / TRIAL_JSON, key)
        if record is not None:
            record["_id"] = entry["id"]
            record["_dir"] = str(folder)
            records.append(record)
        else:
            missing.append(entry)
            if (folder / TRIAL_JSON).exists():
                unreadable.append(entry["id"])
                errors[entry["id"]] = why_unreadable(folder / TRIAL_JSON, key)
    redraws, broken = load_redraws(path)
    return RunData(path=path, manifest=manifest, records=records, missing=missing,
                   unreadable=unreadable, errors=errors, redraws=redraws,
                   redraws_unreadable=broken)


def why_unreadable(path: Path, key: TrialKey) -> str:
    """What is wrong with a trial.json that read_trial refused, in words."""
    try:
        record = json.loads(path.read_text())
    except OSError as exc:
        return f"cannot read {path.name}: {exc.strerror or exc}"
    except ValueError as exc:
        return f"{path.name} is not valid JSON ({exc}): cut off, or written by something else"
    if not isinstance(record, dict) or "verdict" not in record or "task" not in record:
        return f"{path.name} is not a trial record (no task or verdict)"
    return (f"{path.name} belongs to another trial (task {record.get('task')!r}, agent "
            f"{record.get('agent_label', record.get('agent'))!r}, attempt "
            f"{record.get('attempt')!r}; expected {key.task!r}, {key.agent!r}, {key.attempt})")
