"""The tuning run: find parameters, measure the shipped kernel, descend, keep the best.

Every variant is written into the workspace, verified (it parses, and differs from the shipped
source in its launch parameters only), measured with the workspace's check, and the workspace
always ends holding the fastest correct version found, or the shipped one: after the search,
when the budget or the time runs out, and on SIGTERM (the arena's deadline). The transcript is
one JSON object per line on stdout: `start`, `params`, one `check` per measurement (and an
`accept` for each that became the best), `summary` last.
"""

from __future__ import annotations

import json
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .checking import CheckResult, run_check
from .params import CPU, GPU, Param, find_params
from .propose import Values, baseline, descend
from .rewrite import RewriteError, rewrite

# Seconds kept free before the time limit: for writing the best version back and exiting.
RESERVE_S = 3.0


class Stopped(Exception):
    """SIGTERM: the arena's deadline."""


@dataclass
class Options:
    workspace: Path
    check: list[str]
    seed: int = 0
    max_checks: int = 32
    time_limit_s: float = 3600.0
    min_gain: float = 0.01
    launch_options: bool = True
    files: list[str] | None = None


@dataclass
class State:
    options: Options
    sources: dict[str, str]
    params: list[Param]
    started: float = field(default_factory=time.monotonic)
    checks: int = 0
    slowest_s: float = 0.0
    best: Values = field(default_factory=dict)
    best_score: float | None = None
    stop_reason: str | None = None
    log: list[dict[str, Any]] = field(default_factory=list)

    def emit(self, event: str, **fields: Any) -> None:
        record = {"event": event, "t_s": round(time.monotonic() - self.started, 3), **fields}
        self.log.append(record)
        print(json.dumps(record), flush=True)

    def time_left(self) -> float:
        return self.options.time_limit_s - RESERVE_S - (time.monotonic() - self.started)

    def out_of_budget(self) -> bool:
        if self.stop_reason:
            return True
        if self.checks >= self.options.max_checks:
            self.stop_reason = f"check budget spent ({self.options.max_checks} checks)"
        elif self.checks and self.time_left() < self.slowest_s * 1.25:
            self.stop_reason = (f"time limit: {self.time_left():.0f} s left, a check takes up "
                                f"to {self.slowest_s:.0f} s")
        return self.stop_reason is not None

    def write(self, values: Values) -> dict[str, str]:
        """Write a variant into the workspace (verified); the sources written."""
        out = {}
        for rel, source in self.sources.items():
            mine = [p for p in self.params if p.file == rel]
            out[rel] = rewrite(source, mine, values) if mine else source  # type: ignore[arg-type]
            path = self.options.workspace / rel
            if path.read_bytes() != out[rel].encode():  # a file with nothing to change: untouched
                path.write_bytes(out[rel].encode())
        return out


def editable_files(workspace: Path, given: list[str] | None) -> list[str]:
    """The editable Python files: as given, else from the workspace's `.aka-workspace.json`."""
    if given is None:
        meta_path = workspace / ".aka-workspace.json"
        meta = json.loads(meta_path.read_text()) if meta_path.is_file() else {}
        given = list(meta.get("editable") or [])
    return [f for f in given if f.endswith(".py") and (workspace / f).is_file()]


def _changed(params: list[Param], values: Values) -> dict[str, list[int | None]]:
    return {p.key: [p.value, values.get(p.key)] for p in params
            if values.get(p.key, p.value) != p.value}


def _measure(state: State, values: Values, label: str) -> CheckResult | None:
    changed = _changed(state.params, values)
    try:
        state.write(values)
    except RewriteError as exc:  # not measured, not counted
        state.emit("refused", label=label, changed=changed, why=str(exc))
        return None
    state.checks += 1
    entry: dict[str, Any] = {"n": state.checks, "label": label, "changed": changed}
    result = run_check(state.options.check, state.options.workspace, state.time_left())
    state.slowest_s = max(state.slowest_s, result.wall_s)
    fields = {k: v for k, v in result.to_json().items() if k != "tail" or not result.ok}
    state.emit("check", **entry, **fields)
    if result.timed_out:
        state.stop_reason = "time limit: a check ran past the time left"
    return result


def _search(state: State) -> None:
    opts = state.options
    state.best = baseline(state.params)
    first = _measure(state, state.best, "shipped")
    if first is None or not first.ok:
        why = (first.error or f"verdict {first.verdict}") if first else "not measurable"
        state.stop_reason = (state.stop_reason
                             or f"the shipped version does not pass the check ({why})")
        return
    state.best_score = first.speedup
    other = GPU if first.platform == "cpu" else CPU
    active = [p for p in state.params if p.device != other]
    if len(active) < len(state.params):
        state.emit("filtered", platform=first.platform, skipped=[
            p.key for p in state.params if p.device == other],
            why=f"only used on {other} (the check runs on {first.platform})")
    if not active:
        state.stop_reason = f"nothing tunable on {first.platform}"
        return
    count = 0

    def measure(values: Values) -> float | None:
        nonlocal count
        count += 1
        result = _measure(state, values, f"variant {count}")
        return result.speedup if result is not None and result.ok else None

    def accept(values: Values, score: float) -> None:
        # Kept as it happens, so a SIGTERM in the middle of the search keeps it too.
        state.best, state.best_score = values, score
        state.emit("accept", n=state.checks, speedup=score,
                   changed=_changed(state.params, values))

    assert first.speedup is not None
    descend(active, first.speedup, measure, opts.seed, opts.min_gain, state.out_of_budget,
            accept)
    state.stop_reason = state.stop_reason or "converged: no neighbour is faster"


def run(opts: Options) -> dict[str, Any]:
    """Tune the workspace; returns the summary (also the transcript's last line)."""
    files = editable_files(opts.workspace, opts.files)
    sources = {rel: (opts.workspace / rel).read_bytes().decode() for rel in files}
    params: list[Param] = []
    skipped: list[str] = []
    for rel, source in sources.items():
        try:
            found = find_params(source, rel, opts.launch_options)
        except SyntaxError as exc:
            skipped.append(f"{rel}: does not parse ({exc.msg})")
            continue
        params += found.params
        skipped += found.skipped
    state = State(opts, sources, params)
    state.emit("start", workspace=str(opts.workspace), files=files, seed=opts.seed,
               max_checks=opts.max_checks, time_limit_s=opts.time_limit_s,
               min_gain=opts.min_gain, check=opts.check)
    state.emit("params", params=[p.to_json() for p in params], skipped=skipped)

    def on_term(signum: int, frame: object) -> None:
        raise Stopped()

    previous = signal.signal(signal.SIGTERM, on_term)
    try:
        if not params:
            state.stop_reason = "nothing tunable"
        else:
            _search(state)
    except Stopped:
        state.stop_reason = "stopped by SIGTERM (the trial's deadline)"
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        final = state.best if state.best_score is not None else baseline(params)
        try:
            written = state.write(final)
        except RewriteError:  # cannot happen for a measured variant; the shipped one is safe
            final, written = baseline(params), state.write(baseline(params))
        signal.signal(signal.SIGTERM, previous)
    changed = _changed(params, final)
    unchanged = all(written[rel] == sources[rel] for rel in sources)
    message = _message(state, changed, skipped)
    summary = {"message": message, "stop_reason": state.stop_reason, "checks": state.checks,
               "tunable": len(params), "changed": changed, "kept": "shipped" if unchanged
               else "tuned", "best_speedup": state.best_score,
               "shipped_speedup": next((r.get("speedup") for r in state.log
                                        if r.get("event") == "check" and r["n"] == 1), None)}
    state.emit("summary", **summary)
    return summary


def _message(state: State, changed: dict[str, Any], skipped: list[str]) -> str:
    if not state.params:
        why = "; ".join(skipped[:5]) or "no Triton kernel launch in the editable files"
        return f"nothing tunable ({why}); the kernel is left unchanged"
    if not changed:
        return (f"kept the shipped launch parameters after {state.checks} checks "
                f"({state.stop_reason})")
    names = {p.key: f"{p.name} ({p.file}:{p.pos[0]})" for p in state.params}
    moves = ", ".join(f"{names[k]} {'default' if a is None else a}->{b}"
                      for k, (a, b) in changed.items())
    return f"tuned {moves} after {state.checks} checks ({state.stop_reason})"
