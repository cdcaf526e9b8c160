"""Evaluation results as text: the verdict an agent reads after its local check, and the
number formats every table and log line shares.

It sits below the CLI, the runner and the workspace's check server (all of them use it) and
imports nothing of the arena, so that data flows one way: cli -> runner -> evaluate.
"""

from __future__ import annotations

from typing import Any


def fmt_speedup(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}x"


def fmt_ms(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value * 1e3:.1f} us" if value < 1 else f"{value:.3f} ms"


def eval_summary(result: dict[str, Any]) -> str:
    """A plain-text verdict, also the feedback an agent gets from its local check."""
    held = result.get("held_out") or {}
    lines = [
        f"task {result['task']} on {result['platform']}"
        + ("" if result.get("comparable", True) else " (timings not comparable: no GPU)"),
        f"verdict: {result['verdict']}   compiled: {result['compiled']}   "
        f"correct: {result['correct']}   speedup: {fmt_speedup(result.get('speedup'))}   "
        f"score: {result['score']:.1f}",
    ]
    for config in result.get("configs", []):
        parts = [f"  {config['name']}:"]
        if "correct" in config:
            parts.append("correct" if config["correct"] else "WRONG")
        if config.get("max_abs_err") is not None:
            parts.append(f"max abs err {config['max_abs_err']:.3g}")
        if config.get("speedup") is not None:
            parts.append(f"baseline {fmt_ms(config['baseline_ms'])}, "
                         f"yours {fmt_ms(config['candidate_ms'])}, "
                         f"speedup {fmt_speedup(config['speedup'])}")
        if config.get("speedup_vs_compile") is not None:
            parts.append(f"(torch.compile {fmt_ms(config['compile_ms'])}, "
                         f"{fmt_speedup(config['speedup_vs_compile'])})")
        lines.append(" ".join(parts))
    if "speedup_vs_compile" in result:
        lines.append(f"against torch.compile of the baseline: "
                     f"{fmt_speedup(result['speedup_vs_compile'])}"
                     + (f" ({result['vs_compile_error']})" if result.get("vs_compile_error")
                        else ""))
    for reason in result.get("reasons", []):
        lines.append("reason: " + reason.replace("\n", "\n  "))
    if held.get("evaluated"):
        lines.append(f"held-out: correct {held['correct']}, speedup "
                     f"{fmt_speedup(held.get('speedup'))}, quadrant {held.get('quadrant')}")
    return "\n".join(lines)


def feedback(result: dict[str, Any]) -> str:
    """What an agent may see: the visible part only."""
    visible = {k: v for k, v in result.items() if k != "held_out"}
    return eval_summary(visible)
