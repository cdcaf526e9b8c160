"""The GPU half of the soundness checks (tasks/gpu_checks.py), fed with evaluation records
shaped like the evaluator's, so that every rule runs on the CPU."""

from __future__ import annotations

from agentkernelarena.tasks import load_task
from agentkernelarena.tasks.gpu_checks import draw_extremes, timing_report, with_extremes


def _record(configs: list[dict], held: list[dict] | None = None) -> dict:
    return {"configs": configs, "held_out": {"configs": held or []}}


def _config(name: str, base: float, cand: float, bound: float | None = None) -> dict:
    return {"name": name, "baseline_ms": base, "candidate_ms": cand,
            "speedup": base / cand, "speed_of_light_ms": bound}


def test_a_sound_task_has_no_timing_problems():
    aa = _record([_config("a", 1.0, 1.001, 0.2)], [_config("h", 0.5, 0.5, 0.1)])
    solution = _record([_config("a", 1.0, 0.4, 0.2)], [_config("h", 0.5, 0.2, 0.1)])
    rows, problems = timing_report(aa, solution)
    assert problems == []
    assert rows[0] == {"config": "a", "baseline_ms": 1.0, "aa": 1.0 / 1.001, "bound_ms": 0.2,
                       "baseline_over_bound": 5.0, "solution_speedup": 2.5}


def test_baselines_outside_the_window_and_unstable_timings_are_flagged():
    aa = _record([_config("tiny", 0.03, 0.03), _config("huge", 60.0, 60.0)],
                 [_config("wobbly", 1.0, 0.9)])
    _, problems = timing_report(aa, None)
    assert any("tiny" in p and "outside the 0.05-20.0 ms window" in p for p in problems)
    assert any("huge" in p and "outside" in p for p in problems)
    assert any("wobbly" in p and "against itself gave 1.111" in p for p in problems)


def test_missing_headroom_and_an_overcounting_formula_are_flagged():
    aa = _record([_config("near", 1.0, 1.0, 0.9)])
    solution = _record([_config("near", 1.0, 0.85, 0.9), _config("slower", 1.0, 1.02, 0.1)])
    _, problems = timing_report(aa, solution)
    assert any("near" in p and "within 1.2x of the speed-of-light bound" in p for p in problems)
    assert any("near" in p and "faster than the speed-of-light bound" in p for p in problems)
    assert any("slower" in p and "drop solution/" in p for p in problems)


def test_draw_extremes_cover_the_draw_space(scale_add_task, task_copy):
    assert draw_extremes(scale_add_task) == []  # no draws
    task_dir = task_copy()
    path = task_dir / "task.yaml"
    path.write_text(path.read_text().replace(
        "  held_out:\n", "  held_out_draws:\n    count: 1\n    params: {N: {int: [10, 100000]}, "
        "dtype: float32}\n  held_out:\n", 1))
    task = load_task(task_dir)
    extremes = draw_extremes(task)
    names = [c.name for c in extremes]
    assert names[0].startswith("draw-min-") and names[1].startswith("draw-max-")
    assert extremes[0].params["N"] < 100 and extremes[1].params["N"] > 50_000
    timed = with_extremes(task)
    assert timed.held_out_draws is None and timed.held_out[-len(extremes):] == extremes
    assert task.held_out_draws is not None  # the task itself is unchanged


def test_the_bound_uses_the_peak_of_the_tasks_precision_class():
    from agentkernelarena.evaluate import speed_of_light as sol

    assert sol.flop_rate("NVIDIA H200", "fp32") == 67e12
    assert sol.flop_rate("NVIDIA H200", None) == max(sol.RATES["H200"].values())
    assert sol.precision_class(None, {"dtype": "float32"}) == "fp32"
    assert sol.precision_class("tf32", {"dtype": "float32"}) == "tf32"
    # An sgemm of 2 * 4096^3 flops at 0.5 ms: possible at the fp16 tensor-core rate, 4x faster
    # than the fp32 peak allows.
    params = {"big": {"M": 4096, "N": 4096, "K": 4096}}
    fake = [{"name": "big", "candidate_ms": 0.5}]
    flops = "2 * M * N * K"
    assert sol.check([dict(c) for c in fake], params, None, flops, "NVIDIA H200") == []
    assert sol.check([dict(c) for c in fake], params, None, flops, "NVIDIA H200", "fp32")


def test_check_task_times_visible_held_out_and_draw_extremes(task_copy, monkeypatch):
    """The timed path of `aka tasks check` end to end, on the CPU platform made to look
    comparable: both evaluations measured, the draw extremes among the held-out rows."""
    import dataclasses

    from agentkernelarena.platforms import get_platform
    from agentkernelarena.tasks import check

    task_dir = task_copy()
    path = task_dir / "task.yaml"
    path.write_text(path.read_text().replace(
        "  held_out:\n", "  held_out_draws:\n    count: 1\n    params: {N: {int: [10, 6000]}, "
        "dtype: float32}\n  held_out:\n", 1))
    cpu = get_platform("cpu")
    monkeypatch.setattr(check, "get_platform",
                        lambda name: dataclasses.replace(cpu, comparable=True))
    report = check.check_task(load_task(task_dir), "cpu", soundness=False)
    rows = {r["config"]: r for r in report["timing"]}
    assert {"N4096-float32", "N3001-float32"} <= set(rows)
    assert [n for n in rows if n.startswith("draw-min-")] and \
        [n for n in rows if n.startswith("draw-max-")]
    assert all(r["baseline_ms"] > 0 and r["solution_speedup"] > 0 for r in rows.values())
    assert "soundness" not in report
