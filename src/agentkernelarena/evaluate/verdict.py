"""From a session's events to the record of one split: verdict, reasons, configurations.

Every event here was made by the supervisor from data it checked itself (session.py); a worker
that stopped early leaves a `crash` or `timeout` event, a broken task a `harness_error`.
"""

from __future__ import annotations

from typing import Any

from agentkernelarena.errors import AkaError, TaskError
from agentkernelarena.evaluate.session import SessionOutcome
from agentkernelarena.scoring import arithmetic_mean, geometric_mean
from agentkernelarena.tasks.spec import Task


def interpret(outcome: SessionOutcome, task: Task, split: str,
              request_configs: list[dict[str, Any]]) -> dict[str, Any] | None:
    """One split's verdict, flags, reasons and per-configuration records from the session's
    events; None when the evaluation never reached this split (it ended in an earlier one)."""
    harness = outcome.first("harness_error")
    if harness and "ModuleNotFoundError" in harness["message"]:
        raise AkaError(f"task {task.id}: a Python module is missing on this machine: "
                       f"{harness['message'].splitlines()[-1]}",
                       "install it into the arena's environment (`make setup` installs what "
                       "the bundled tasks need)")
    if harness:
        raise TaskError(f"task {task.id} is broken (its pristine files): {harness['message']}",
                        f"run `aka tasks check {task.id}`")
    infra = outcome.first("infra_error")
    if infra:
        raise AkaError(f"task {task.id}: this machine cannot build it: {infra['message']}",
                       "install the missing toolchain (see docs/native.md)")
    compile_only = outcome.first("compile_only")
    if compile_only:
        return {"verdict": "compile_only", "compiled": True, "correct": None, "speedup": None,
                "speedup_arith": None, "reasons": [compile_only["message"]], "configs": [],
                "wall_s": 0.0, "sanity_issues": [], "drawn": []}
    compiled = outcome.first("compiled") is not None
    events = [e for e in outcome.events if e.get("split") == split]
    kinds = {e["event"]: e for e in events}
    if compiled and "split_start" not in kinds and split != "visible":
        return None
    configs: dict[str, dict[str, Any]] = {}
    for event in events:
        kind = event["event"]
        if kind in ("config_correct", "config_incorrect", "config_timing",
                    "config_timing_compile"):
            record = configs.setdefault(event["config"], {"name": event["config"]})
            record.update({k: v for k, v in event.items()
                           if k not in ("event", "config", "split", "t", "message")})
            if kind in ("config_correct", "config_incorrect"):
                record["correct"] = kind == "config_correct"
    reasons: list[str] = []
    if (failure := outcome.first("compile_error")) is not None:
        verdict = "compile_error"
        reasons.append(failure["message"])
    elif (failure := outcome.first("rejected")) is not None:
        verdict = "rejected"
        reasons.append(failure["message"])
    elif (failure := next((e for e in outcome.events if e["event"] in ("crash", "timeout")
                           and e.get("split") in (None, split)), None)) is not None:
        verdict = failure["event"]
        reasons.append(failure["message"])
    elif (failure := kinds.get("incorrect")) is not None:
        verdict = "incorrect"
        per_config = [e["message"] for e in events if e["event"] == "config_incorrect"]
        reasons.extend(per_config or [failure["message"]])
    elif "split_done" in kinds:
        verdict = "ok"
    else:
        verdict = "crash"
        reasons.append("the evaluation ended before this split was finished")
    correct = verdict == "ok"
    speedups = [c["speedup"] for c in configs.values() if c.get("speedup") is not None]
    timed = correct and speedups and len(speedups) == len(configs)
    phase_times = [e["t"] for e in events if "t" in e]
    record = {
        "verdict": verdict,
        "compiled": compiled,
        "correct": correct,
        "speedup": geometric_mean(speedups) if timed else None,
        "speedup_arith": arithmetic_mean(speedups) if timed else None,
        "reasons": reasons,
        "configs": list(configs.values()),
        "wall_s": round(max(phase_times) - min(phase_times), 3) if phase_times else 0.0,
        "sanity_issues": [e["message"] for e in events if e["event"] == "sanity_issue"],
        "drawn": [c["name"] for c in request_configs if c.get("drawn")],
    }
    # Only with EvalOptions(vs_compile=True), for tasks whose baseline is PyTorch.
    versus = [c["speedup_vs_compile"] for c in configs.values() if "speedup_vs_compile" in c]
    versus_error = outcome.first("vs_compile_error")
    if versus or versus_error:
        complete = timed and len(versus) == len(configs)
        record["speedup_vs_compile"] = geometric_mean(versus) if complete else None
    if versus_error:
        record["vs_compile_error"] = versus_error["message"]
    return record


def _quadrant(baseline_ok: bool | None, candidate_ok: bool) -> str | None:
    if baseline_ok is None:
        return None
    return {(True, True): "both_pass", (True, False): "regression",
            (False, False): "both_fail", (False, True): "improvement"}[(baseline_ok, candidate_ok)]


def held_out_record(split: dict[str, Any]) -> dict[str, Any]:
    flags = [c.get("baseline_correct") for c in split["configs"]]
    baseline_ok = all(flags) if flags and None not in flags else None
    return {
        "evaluated": True,
        **{k: split[k] for k in ("verdict", "correct", "speedup", "speedup_arith", "reasons",
                                 "configs", "wall_s", "sanity_issues")},
        "baseline_correct": baseline_ok,
        "quadrant": _quadrant(baseline_ok, split["correct"]),
        "drawn": split["drawn"],
    }
