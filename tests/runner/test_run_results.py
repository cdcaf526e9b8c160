"""A real (CPU) A/B run, end to end: its folder, report, held-out re-evaluation, compare."""

from __future__ import annotations

import json
from pathlib import Path

from run_helpers import make_run, trial, trial_records

from agentkernelarena.report import compare_runs, load_run
from agentkernelarena.tasks import load_task


def test_run_folder_layout(finished_run: Path):
    names = {p.name for p in finished_run.iterdir()}
    assert {"manifest.json", "run.log", "summary.json", "trials"} <= names
    manifest = json.loads((finished_run / "manifest.json").read_text())
    assert manifest["label"] == "ab-test" and manifest["platform"] == "cpu"
    assert manifest["versions"]["torch"] and manifest["versions"]["triton"]
    assert manifest["hardware"]["gpu_count"] == 0 and manifest["hardware"]["cpu_count"]
    assert manifest["git"]["arena"]["revision"]
    assert [a["label"] for a in manifest["identity"]["agents"]] == ["solution", "noop"]
    records = trial_records(finished_run)
    assert sorted(records) == ["noop__triton2triton__scale_add__0",
                               "solution__triton2triton__scale_add__0"]
    for name, record in records.items():
        folder = finished_run / "trials" / name
        assert (folder / "final" / "kernel.py").is_file() and (folder / "patch.diff").exists()
        assert record["evaluation"]["scheduler"]["slot"].startswith("cpu-slot")
    seeds = {r["evaluation"]["seed"] for r in records.values()}
    assert len(seeds) == 1  # both agents judged on the same draws


def test_report_of_a_real_run(finished_run: Path, aka):
    code, out, _ = aka("report", str(finished_run), "--format", "json")
    report = json.loads(out)
    assert code == 0 and report["summary"]["run"]["complete"]
    agents = report["summary"]["agents"]
    assert agents["solution"]["correct_rate"] == 1.0 and agents["noop"]["correct_rate"] == 1.0
    by_agent = {t["agent"]: t for t in report["trials"]}
    assert by_agent["solution"]["agent_name"] == "oracle"
    assert by_agent["solution"]["held_out"]["quadrant"] == "both_pass"


def test_heldout_reevaluates_with_new_recorded_seeds(finished_run: Path, aka,
                                                     draws_tasks_dir: Path):
    before = trial_records(finished_run)
    code, out, err = aka("heldout", str(finished_run), "--draws", "2", "--no-timing",
                         "--agent", "solution")
    assert code == 0, err
    files = sorted((finished_run / "heldout").glob("*.json"))
    assert len(files) == 1 and f"results: {files[0]}" in out
    result = json.loads(files[0].read_text())
    assert result["draws_per_trial"] == 2 and len(result["trials"]) == 1
    task = load_task(draws_tasks_dir / "triton2triton" / "scale_add")
    for entry in result["trials"]:
        seeds = [d["seed"] for d in entry["draws"]]
        assert len(set(seeds)) == 2 and entry["original"]["seed"] not in seeds
        assert entry["solution"] == "final" and entry["summary"]["all_passed"]
        for draw in entry["draws"]:
            assert draw["held_out"]["correct"] and draw["held_out"]["drawn"]
            # The recorded seed repeats the draw exactly.
            drawn = [c.name for c in task.configs_for("cpu", "held_out", draw["seed"])
                     if c.drawn]
            assert draw["held_out"]["drawn"] == drawn
    assert result["summary"]["solution"]["draw_correct_rate"] == 1.0
    assert trial_records(finished_run) == before  # the run's own records are untouched
    code, out, _ = aka("heldout", str(finished_run), "--draws", "1", "--no-timing", "--json",
                       "--agent", "noop")
    again = json.loads(out)
    assert code == 0 and again["draws_per_trial"] == 1 and len(again["trials"]) == 1
    assert len(list((finished_run / "heldout").glob("*.json"))) == 2  # earlier results kept
    code, out, _ = aka("report", str(finished_run), "--format", "json")
    report = json.loads(out)
    assert code == 0 and [len(h["agents"]) for h in report["heldout"]] == [1, 1]
    redrawn = {t["agent"]: t["heldout_redraws"] for t in report["trials"]}
    assert redrawn["solution"] == {"draws": 2, "passed": 2, "errors": 0, "redraws": 1}
    assert report["summary"]["heldout_redraws"]["count"] == 2
    code, out, _ = aka("report", str(finished_run))
    assert code == 0 and "held-out re-draws (aka heldout)" in out
    code, _, err = aka("heldout", str(finished_run), "--agent", "nobody")
    assert code == 2 and "no finished trial of agent(s) nobody" in err


def test_compare_two_agents_of_one_run(finished_run: Path, aka):
    code, out, _ = aka("compare", str(finished_run), str(finished_run), "--agent-a", "noop",
                       "--agent-b", "solution", "--format", "json")
    result = json.loads(out)
    assert code == 0 and result["summary"]["paired_tasks"] == 1
    task = result["tasks"][0]
    assert task["a"]["trials"] == 1 and task["b"]["correct"] == 1
    assert task["winner"] in ("a", "b", "tie") and task["speedup_ratio"] > 0
    code, out, _ = aka("compare", str(finished_run), str(finished_run), "--agent-a", "noop",
                       "--agent-b", "solution")
    assert code == 0 and "paired task(s)" in out and "B/A" in out
    code, _, err = aka("compare", str(finished_run), str(finished_run))
    assert code == 2 and "has 2 agents" in err


def test_compare_counts_and_interval(tmp_path: Path):
    tasks = ["t/a", "t/b", "t/c", "t/d", "t/e"]
    run_a = make_run(tmp_path / "a", [trial(t, "ok", 1.0) for t in tasks[:4]]
                     + [trial("t/only_a", "ok", 1.0)])
    run_b = make_run(tmp_path / "b", [trial("t/a", "ok", 2.0), trial("t/b", "ok", 1.01),
                                      trial("t/c", "incorrect"), trial("t/d", "ok", 0.5),
                                      trial("t/e", "ok", 3.0)])
    result = compare_runs(load_run(run_a), load_run(run_b), min_tasks=2)
    s = result["summary"]
    assert s["paired_tasks"] == 4 and s["only_a"] == ["t/only_a"] and s["only_b"] == ["t/e"]
    winners = {t["task"]: t["winner"] for t in result["tasks"]}
    assert winners == {"t/a": "b", "t/b": "tie", "t/c": "a", "t/d": "a"}
    assert (s["wins_b"], s["wins_a"], s["ties"]) == (1, 2, 1)
    assert s["speedup_ratio_n"] == 3  # t/c has no speedup on B
    assert abs(s["speedup_ratio_geomean"] - (2.0 * 1.01 * 0.5) ** (1 / 3)) < 1e-9
    low, high = s["speedup_ratio_ci95"]
    assert low <= s["speedup_ratio_geomean"] <= high
    assert s["delta"]["correct_rate"] == -0.25
