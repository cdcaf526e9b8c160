"""The HTML report's plots, from a report's trials and summary (report/metrics.py).

Each plot says what it counts in its caption: speedups are of correct trials only (a wrong
kernel has no speed), failed trials are drawn apart (hollow grey) instead of dropped.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from agentkernelarena.report.metrics import geomean
from agentkernelarena.report.svg import FAIL, Chart, Scale, color, jitter, log_domain

Plot = dict[str, str]


def _agents(trials: list[dict[str, Any]], order: list[str]) -> list[str]:
    return order + sorted({t["agent"] for t in trials} - set(order))


def _speed(trial: dict[str, Any]) -> float | None:
    value = trial.get("speedup")
    return value if trial["correct"] and value and value > 0 else None


def speedup_by_category(trials: list[dict[str, Any]], agents: list[str]) -> Plot:
    categories = sorted({t["category"] for t in trials})
    values = [s for t in trials if (s := _speed(t))]
    chart = Chart(width=max(360, 110 * len(categories) * max(1, len(agents)) // 2 + 120),
                  height=320, title="speedup per category", bottom=50)
    y = Scale(*log_domain(values), chart.y0, chart.y1, log=True)
    chart.y_axis(y, "speedup (log)", baseline=1.0)
    band = (chart.x1 - chart.x0) / max(1, len(categories))
    sub = band / max(1, len(agents))
    for ci, category in enumerate(categories):
        chart.text(chart.x0 + band * (ci + 0.5), chart.y0 + 30, category, size=11)
        for ai, agent in enumerate(agents):
            mine = [t for t in trials if t["category"] == category and t["agent"] == agent]
            if not mine:
                continue
            centre = chart.x0 + band * ci + sub * (ai + 0.5)
            speeds = sorted(s for t in mine if (s := _speed(t)))
            for index, trial in enumerate(mine):
                speed = _speed(trial)
                if speed is not None:
                    chart.dot(centre + jitter(index, sub * 0.3), y(speed), color(ai),
                              f"{agent} {trial['task']} #{trial['attempt']}: {speed:.3f}x")
            if speeds:
                median = speeds[len(speeds) // 2] if len(speeds) % 2 else math.sqrt(
                    speeds[len(speeds) // 2 - 1] * speeds[len(speeds) // 2])
                chart.line(centre - sub * 0.35, y(median), centre + sub * 0.35, y(median),
                           stroke="#222")
            chart.text(centre, chart.y0 + 14, f"{len(speeds)}/{len(mine)}", size=9)
    chart.legend(agents)
    return {"id": "plot-category", "title": "Speedup distribution per category",
            "caption": "One dot per correct trial (log scale; dashed line: the baseline; bar: "
                       "median). Under each group: correct trials / all finished trials.",
            "svg": chart.svg()}


def per_task_speedups(trials: list[dict[str, Any]], agents: list[str]) -> Plot:
    tasks = sorted({t["task"] for t in trials})
    per: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for trial in trials:
        per.setdefault((trial["task"], trial["agent"]), []).append(trial)
    values = [s for t in trials if (s := _speed(t))]
    chart = Chart(width=720, height=78 + 18 * len(tasks), title="speedup per task", left=230,
                  top=30)
    x = Scale(*log_domain(values), chart.x0 + 12, chart.x1, log=True)
    chart.x_axis(x, "geometric-mean speedup of the correct attempts (log)", baseline=1.0)
    for ti, task in enumerate(tasks):
        row = chart.y1 + 18 * ti + 12
        chart.text(chart.x0 - 6, row + 4, task, anchor="end", size=10)
        for ai, agent in enumerate(agents):
            mine = per.get((task, agent))
            if not mine:
                continue
            offset = (ai - (len(agents) - 1) / 2) * 4
            speed = geomean(s for t in mine if (s := _speed(t)))
            correct = sum(t["correct"] for t in mine)
            if speed is None:
                chart.dot(chart.x0 + 5, row + offset, FAIL,
                          f"{agent} {task}: no correct attempt (0/{len(mine)})", hollow=True)
            else:
                chart.dot(x(speed), row + offset, color(ai),
                          f"{agent} {task}: {speed:.3f}x ({correct}/{len(mine)} correct)")
    chart.legend(agents)
    return {"id": "plot-tasks", "title": "Per-task speedups",
            "caption": "Per task and agent, the geometric mean of its correct attempts; hollow "
                       "grey at the left: no correct attempt.", "svg": chart.svg()}


def score_breakdown(summary: dict[str, Any]) -> Plot:
    groups = []
    for label, metrics in summary["agents"].items():
        if not metrics.get("trials"):
            continue
        groups.append((label, metrics))
        categories = metrics.get("categories", {})
        if len(categories) > 1:
            groups += [(f"{label} / {c}", m) for c, m in categories.items()]
    parts = []
    for name, m in groups:
        compile_pts, correct_pts = 20 * m["compile_rate"], 100 * m["correct_rate"]
        speed_pts = max(m["score_mean"] - compile_pts - correct_pts, 0.0)
        parts.append((name, compile_pts, correct_pts, speed_pts, m["score_mean"]))
    top = max([p[4] for p in parts] + [1.0])
    chart = Chart(width=720, height=78 + 22 * len(parts), title="score breakdown", left=230)
    x = Scale(0, top * 1.05, chart.x0, chart.x1)
    chart.x_axis(x, "mean score per trial")
    kinds = ("compile (20)", "correct (100)", "speed (100 x speedup)")
    for gi, (name, *points, total) in enumerate(parts):
        row = chart.y1 + 22 * gi + 5
        chart.text(chart.x0 - 6, row + 12, name, anchor="end", size=10)
        start = 0.0
        for ki, value in enumerate(points):
            chart.rect(x(start), row, x(start + value) - x(start), 16, color(ki),
                       f"{name}: {kinds[ki]} {value:.1f}")
            start += value
        chart.text(x(start) + 4, row + 12, f"{total:.1f}", anchor="start", size=10)
    chart.legend(kinds)
    return {"id": "plot-score", "title": "Score breakdown",
            "caption": "Mean score per trial split into its parts: 20 x compile rate, 100 x "
                       "correct rate, and the rest (100 x speedup of correct trials, over all "
                       "trials).", "svg": chart.svg()}


QUADRANT_CELLS = (("both_pass", 0, 0, "#3ca951"), ("regression", 1, 0, "#ff725c"),
                  ("improvement", 0, 1, "#4269d0"), ("both_fail", 1, 1, FAIL))


def held_out_quadrants(summary: dict[str, Any]) -> Plot:
    agents = [(label, m) for label, m in summary["agents"].items() if m.get("trials")]
    cell = 56
    chart = Chart(width=max(320, 40 + 190 * len(agents)), height=210, title="held-out quadrants",
                  left=20, right=20, top=50, bottom=10, frame=False)
    for ai, (label, metrics) in enumerate(agents):
        quadrants = metrics["generalization"]["quadrants"]
        left = chart.x0 + 190 * ai + 70
        chart.text(left + cell, chart.y1 - 22, label, size=12)
        chart.text(left + cell / 2, chart.y1 - 1, "cand. ok", size=9)
        chart.text(left + 1.5 * cell, chart.y1 - 1, "cand. fails", size=9)
        chart.text(left - 4, chart.y1 + cell / 2 + 4, "base ok", anchor="end", size=9)
        chart.text(left - 4, chart.y1 + 1.5 * cell + 4, "base fails", anchor="end", size=9)
        for name, column, row, fill in QUADRANT_CELLS:
            count = quadrants.get(name, 0)
            chart.rect(left + column * cell, chart.y1 + row * cell, cell - 2, cell - 2, fill,
                       f"{label}: {name} {count}")
            chart.text(left + column * cell + cell / 2, chart.y1 + row * cell + cell / 2 + 5,
                       str(count), size=15, extra=' fill="#fff" font-weight="bold"')
        chart.text(left + cell, chart.y1 + 2 * cell + 16,
                   f"not evaluated: {quadrants.get('not_evaluated', 0)}", size=10)
    return {"id": "plot-quadrants", "title": "Held-out quadrants",
            "caption": "Held-out correctness of the baseline (rows) against the candidate "
                       "(columns), in trials: regression = the baseline passes its held-out "
                       "configurations and the candidate does not.", "svg": chart.svg()}


# What a trial cost, in order of preference: the first recorded somewhere (above a floor: the
# in-process agents record a cost of 0 and an agent time of a few milliseconds).
EFFORT = (("cost_usd", "cost (USD)", 0.0), ("agent_wall_s", "agent time (s)", 0.5),
          ("trial_wall_s", "trial time (s)", 0.0))


def effort_vs_speedup(trials: list[dict[str, Any]], agents: list[str]) -> Plot:
    key, axis = next(((k, a) for k, a, least in EFFORT
                      if any((t.get(k) or 0) > least for t in trials)), EFFORT[-1][:2])
    points = [t for t in trials if t.get(key) is not None]
    values = [s for t in points if (s := _speed(t))]
    chart = Chart(width=560, height=320, title=f"{axis} against speedup")
    high = max([t[key] for t in points] + [1e-9])
    x = Scale(0, high * 1.05, chart.x0, chart.x1)
    low, top = log_domain(values)
    y = Scale(low, top, chart.y0 - 10, chart.y1, log=True)
    chart.x_axis(x, axis)
    chart.y_axis(y, "speedup (log)", baseline=1.0)
    where: Callable[[str], int] = agents.index
    for index, trial in enumerate(points):
        speed = _speed(trial)
        tip = f"{trial['agent']} {trial['task']} #{trial['attempt']}: {trial[key]:g} {axis}"
        if speed is None:
            chart.dot(x(trial[key]), chart.y0 - 4 + jitter(index, 2), FAIL,
                      f"{tip}, {trial['verdict']}", hollow=True)
        else:
            chart.dot(x(trial[key]), y(speed), color(where(trial["agent"])),
                      f"{tip}, {speed:.3f}x")
    chart.legend(agents)
    return {"id": "plot-effort", "title": f"{axis[0].upper()}{axis[1:]} against speedup",
            "caption": f"One dot per trial with a recorded {axis.split(' (')[0]}; hollow grey "
                       "along the bottom: not correct.", "svg": chart.svg()}


def report_plots(report: dict[str, Any], order: list[str]) -> list[Plot]:
    trials = report["trials"]
    if not trials:
        return []
    agents = _agents(trials, order)
    return [speedup_by_category(trials, agents), per_task_speedups(trials, agents),
            score_breakdown(report["summary"]), held_out_quadrants(report["summary"]),
            effort_vs_speedup(trials, agents)]


def compare_plot(result: dict[str, Any]) -> Plot:
    """B/A per paired task (log), coloured by the task's winner."""
    tasks = result["tasks"]
    ratios = [t["speedup_ratio"] for t in tasks if t["speedup_ratio"]]
    chart = Chart(width=720, height=78 + 18 * len(tasks), title="B/A per task", left=230)
    x = Scale(*log_domain(ratios), chart.x0 + 12, chart.x1, log=True)
    chart.x_axis(x, "speedup B/A (log; right of the dashed line: B faster)", baseline=1.0)
    fills = {"b": color(4), "a": color(2), "tie": color(9)}
    for index, task in enumerate(tasks):
        row = chart.y1 + 18 * index + 12
        chart.text(chart.x0 - 6, row + 4, task["task"], anchor="end", size=10)
        tip = (f"{task['task']}: winner {task['winner']}, correct A "
               f"{task['a']['correct']}/{task['a']['trials']}, B "
               f"{task['b']['correct']}/{task['b']['trials']}")
        if task["speedup_ratio"]:
            chart.dot(x(task["speedup_ratio"]), row, fills[task["winner"]],
                      f"{tip}, B/A {task['speedup_ratio']:.3f}")
        else:
            chart.dot(chart.x0 + 5, row, fills[task["winner"]], f"{tip}, no ratio", hollow=True)
    return {"id": "plot-compare", "title": "B/A per task",
            "caption": "Green: B wins the task, red: A wins, grey: tie (correctness first, then "
                       "speed beyond the tie band); hollow at the left: a side has no correct "
                       "attempt.", "svg": chart.svg()}
