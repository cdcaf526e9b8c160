"""`aka compare`: bootstrap verdicts per metric, small samples, runs with different settings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from run_helpers import make_run, trial

from agentkernelarena.report import compare_runs, load_run
from agentkernelarena.report.bootstrap import BETTER, SAME, TOO_FEW, WORSE, paired_bootstrap

TASKS = [f"t2t/k{i:02d}" for i in range(14)]


def _run(root: Path, speed: float, *, attempts: int = 3, wrong: set[str] = frozenset(),
         identity: dict[str, Any] | None = None, hashes: dict[str, str] | None = None) -> Path:
    """A run over TASKS: task i at `speed` x (1 + i/20), attempt-to-attempt noise of +-2%."""
    records = []
    for index, task in enumerate(TASKS):
        for attempt in range(attempts):
            noise = 1 + 0.02 * ((attempt * 7 + index * 3) % 5 - 2) / 2
            if task in wrong:
                records.append(trial(task, "incorrect", attempt=attempt))
            else:
                records.append(trial(task, "ok", speed * (1 + index / 20) * noise,
                                     attempt=attempt, held=(True, speed * noise, "both_pass")))
    run = make_run(root, records)
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["identity"].update(identity or {"attempts": attempts, "max_iterations": 3,
                                             "platform": "cuda"})
    if hashes:
        manifest["tasks"] = {t: {"hash": h} for t, h in hashes.items()}
    (run / "manifest.json").write_text(json.dumps(manifest))
    return run


def _verdicts(result: dict[str, Any]) -> dict[str, str]:
    return {m["metric"]: m["verdict"] for m in result["metrics"]}


def test_clearly_better_run_is_better_and_worse_the_other_way(tmp_path: Path):
    slow = _run(tmp_path / "slow", 1.0, wrong={TASKS[0], TASKS[1], TASKS[2], TASKS[3]})
    fast = _run(tmp_path / "fast", 1.6)
    result = compare_runs(load_run(slow), load_run(fast))
    verdicts = _verdicts(result)
    assert verdicts["speedup_ratio"] == BETTER and verdicts["score_mean"] == BETTER
    assert verdicts["correct_rate"] == BETTER and verdicts["fast_1.5"] == BETTER
    assert verdicts["held_out_speedup_ratio"] == BETTER
    assert verdicts["compile_rate"] == SAME  # both compile everything
    speed = next(m for m in result["metrics"] if m["metric"] == "speedup_ratio")
    assert speed["n_tasks"] == 10 and speed["ci95"][0] > 1.4 and abs(speed["delta"] - 1.6) < 0.05
    assert speed["over"] == "10 tasks visible-correct on both"
    assert result["summary"]["speedup_ratio_ci95"] == speed["ci95"]
    assert not result["summary"]["too_few_tasks"] and not result["summary"]["warnings"]
    assert [m["task"] for m in result["improved"]][:4] == TASKS[:4]  # correctness first
    assert not result["regressed"]
    backwards = _verdicts(compare_runs(load_run(fast), load_run(slow)))
    assert backwards["speedup_ratio"] == WORSE and backwards["correct_rate"] == WORSE


def test_identical_runs_are_not_distinguishable(tmp_path: Path):
    run_a, run_b = _run(tmp_path / "a", 1.2), _run(tmp_path / "b", 1.2)
    result = compare_runs(load_run(run_a), load_run(run_b))
    assert set(_verdicts(result).values()) == {SAME}
    assert result["summary"]["wins_a"] == result["summary"]["wins_b"] == 0


def test_noise_alone_is_not_a_difference(tmp_path: Path):
    """Same agent, attempt noise in a different order: no verdict either way."""
    run_a = _run(tmp_path / "a", 1.2)
    records = [trial(t, "ok", 1.2 * (1 + i / 20) * (1.03 if (i % 2) else 0.97), attempt=k)
               for i, t in enumerate(TASKS) for k in range(3)]
    run_b = make_run(tmp_path / "b", records)
    assert _verdicts(compare_runs(load_run(run_a), load_run(run_b)))["speedup_ratio"] == SAME


def test_bootstrap_is_deterministic_with_its_seed(tmp_path: Path):
    run_a, run_b = load_run(_run(tmp_path / "a", 1.0)), load_run(_run(tmp_path / "b", 1.05))
    first = compare_runs(run_a, run_b, seed=3)["metrics"]
    assert compare_runs(run_a, run_b, seed=3)["metrics"] == first
    other = compare_runs(run_a, run_b, seed=4)["metrics"]
    assert [m["delta"] for m in other] == [m["delta"] for m in first]  # point estimates
    assert [m["ci95"] for m in other] != [m["ci95"] for m in first]  # intervals: the draw


def test_attempts_are_resampled_within_tasks():
    """One task all-correct on B, its attempts split on A: wider than a fixed-attempt CI."""
    def rows(correct: list[bool]) -> list[dict[str, Any]]:
        return [trial("t/x", "ok" if ok else "incorrect", 1.0 if ok else None) | {
            "compiled": True, "correct": ok, "held_out": {}} for ok in correct]

    pairs = [(rows([True, False, True, False]), rows([True] * 4)) for _ in range(12)]
    correct = next(m for m in paired_bootstrap(pairs) if m["metric"] == "correct_rate")
    assert correct["delta"] == 0.5 and correct["verdict"] == BETTER
    low, high = correct["ci95"]
    assert 0 < low < 0.5 < high <= 1.0  # the attempts' noise shows, the tasks' does not


def test_small_samples_say_too_few_tasks_to_tell(tmp_path: Path, aka):
    few = [trial(t, "ok", 1.0) for t in TASKS[:3]]
    more = [trial(t, "ok", 3.0) for t in TASKS[:3]]
    run_a, run_b = make_run(tmp_path / "a", few), make_run(tmp_path / "b", more)
    result = compare_runs(load_run(run_a), load_run(run_b))
    assert result["summary"]["too_few_tasks"] and result["summary"]["speedup_ratio_ci95"] is None
    assert set(_verdicts(result).values()) == {TOO_FEW}
    assert "only 3 paired task(s), fewer than 10" in result["summary"]["warnings"][0]
    lowered = compare_runs(load_run(run_a), load_run(run_b), min_tasks=3)
    assert _verdicts(lowered)["speedup_ratio"] == BETTER
    code, out, _ = aka("compare", str(run_a), str(run_b))
    assert code == 0 and "too few tasks to tell" in out and "fewer than 10" in out


def test_runs_with_different_settings_warn(tmp_path: Path):
    hashes = {t: "h1" for t in TASKS}
    run_a = _run(tmp_path / "a", 1.0, attempts=1, hashes=hashes)
    run_b = _run(tmp_path / "b", 1.0, attempts=3,
                 identity={"attempts": 3, "max_iterations": 5, "platform": "cuda"},
                 hashes={**hashes, TASKS[0]: "h2"})
    warnings = compare_runs(load_run(run_a), load_run(run_b))["summary"]["warnings"]
    text = "\n".join(warnings)
    assert "differ in attempts per task: A 1, B 3" in text
    assert "differ in max iterations: A 3, B 5" in text
    assert f"1 paired task(s) had different files in the two runs (task versions differ): " \
           f"{TASKS[0]}" in text
    assert "platform" not in text  # same platform


def test_attempts_mismatch_is_seen_without_manifest_identity(tmp_path: Path):
    one = make_run(tmp_path / "a", [trial(t, "ok", 1.0) for t in TASKS])
    three = make_run(tmp_path / "b", [trial(t, "ok", 1.0, attempt=k) for t in TASKS
                                      for k in range(3)])
    warnings = compare_runs(load_run(one), load_run(three))["summary"]["warnings"]
    assert any("attempts per task (finished): A 1, B 3" in w for w in warnings)


def test_two_agents_of_one_run_have_no_settings_warnings(tmp_path: Path):
    records = [trial(t, "ok", 1.0, agent="A") for t in TASKS]
    records += [trial(t, "ok", 1.1, agent="B") for t in TASKS]
    run = load_run(make_run(tmp_path / "ab", records, agents=("A", "B")))
    assert compare_runs(run, run, "A", "B")["summary"]["warnings"] == []


def test_score_mean_says_it_is_over_paired_tasks(tmp_path: Path, aka):
    run_a = make_run(tmp_path / "a", [trial(t, "ok", 1.0) for t in TASKS] +
                     [trial("t2t/only_a", "ok", 9.0)])
    run_b = make_run(tmp_path / "b", [trial(t, "ok", 1.0) for t in TASKS])
    result = compare_runs(load_run(run_a), load_run(run_b))
    assert result["summary"]["a"]["over"].startswith("the 14 paired task(s) only")
    score = next(m for m in result["metrics"] if m["metric"] == "score_mean")
    assert score["over"] == "14 paired tasks, all trials" and score["a"] == 220.0
    for fmt, marker in (("md", "| mean score | 220.0 | 220.0 |"), ("table", "paired tasks only"),
                        ("html", "not distinguishable")):
        code, out, _ = aka("compare", str(run_a), str(run_b), "--format", fmt)
        assert code == 0 and marker in out, fmt
    code, out, _ = aka("compare", str(run_a), str(run_b), "--format", "json")
    assert json.loads(out)["summary"]["only_a"] == ["t2t/only_a"]


def test_no_paired_tasks_and_no_correct_trials(tmp_path: Path, aka):
    run_a = make_run(tmp_path / "a", [trial("t/a", "ok", 1.0)])
    run_b = make_run(tmp_path / "b", [trial("t/b", "ok", 1.0)])
    result = compare_runs(load_run(run_a), load_run(run_b))
    assert result["summary"]["paired_tasks"] == 0 and result["tasks"] == []
    assert all(m["a"] is None and m["verdict"] == TOO_FEW for m in result["metrics"])
    for fmt in ("table", "md", "html", "json"):
        assert aka("compare", str(run_a), str(run_b), "--format", fmt)[0] == 0
    wrong_a = make_run(tmp_path / "c", [trial(t, "incorrect") for t in TASKS])
    wrong_b = make_run(tmp_path / "d", [trial(t, "incorrect") for t in TASKS[:3]]
                       + [trial(t, "ok", 2.0) for t in TASKS[3:]])
    verdicts = _verdicts(compare_runs(load_run(wrong_a), load_run(wrong_a)))
    assert verdicts["correct_rate"] == SAME and verdicts["speedup_ratio"] == TOO_FEW
    verdicts = _verdicts(compare_runs(load_run(wrong_a), load_run(wrong_b)))
    assert verdicts["correct_rate"] == BETTER and verdicts["speedup_ratio"] == TOO_FEW


def test_compare_fits_a_narrow_terminal(tmp_path: Path, monkeypatch, capsys):
    """At 80 columns: one line per metric and task, no cell cut to an ellipsis."""
    from rich.console import Console

    import agentkernelarena.report.compare_render as render

    run_a, run_b = _run(tmp_path / "a", 1.0), _run(tmp_path / "b", 1.6)
    result = compare_runs(load_run(run_a), load_run(run_b))
    monkeypatch.setattr(render, "console", lambda: Console(width=80))
    render.print_compare(result)
    narrow = capsys.readouterr().out
    assert "…" not in narrow and "speedup B/A (geomean, correct trials): better;" in narrow
    assert f"{TASKS[0]}: A 3/3 ok (ok 3), A speedup 1.000x" in narrow
    assert max(len(line) for line in narrow.splitlines()) <= 80
    monkeypatch.setattr(render, "console", lambda: Console(width=200))
    render.print_compare(result)
    wide = capsys.readouterr().out
    assert "┃ metric" in wide and "…" not in wide
