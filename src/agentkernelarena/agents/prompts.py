"""The prompt of each iteration, from templates (templates/prompts/), per task category.

Every iteration starts a fresh agent session, so each prompt carries everything: the rules, the
task card, the iteration budget, and (after the first) what the local check said about the
previous iteration's result. Templates are files so prompt changes are reviewable text diffs
and A/B experiments on prompts need no code change (`prompt_dir` points at another folder).
"""

from __future__ import annotations

from pathlib import Path
from string import Template

from agentkernelarena.tasks.spec import Task
from agentkernelarena.workspace.materialize import CPU_NOTE, task_card

PROMPTS = Path(__file__).resolve().parent.parent / "templates" / "prompts"
MAX_FEEDBACK = 6000

ADVICE = {
    "compile_error": "It did not compile: fix that first.",
    "incorrect": "It compiled but gave wrong results: make it correct before making it faster.",
    "timeout": "It ran out of time in the check: look for a hang or a far too slow path.",
    "crash": "It crashed: look for out-of-bounds accesses or bad launch parameters.",
    "rejected": "It was rejected by an integrity guard: see the reason, and compute the "
                "result honestly in your kernels.",
    "ok": "It is correct. Make it faster if you can, and keep it correct.",
}


def _clip(text: str, limit: int = MAX_FEEDBACK) -> str:
    if len(text) <= limit:
        return text
    half = limit // 2
    return text[:half] + f"\n... [{len(text) - limit} characters cut] ...\n" + text[-half:]


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "unlimited"
    minutes = max(0, int(seconds // 60))
    return f"{minutes} minutes" if minutes else f"{max(0, int(seconds))} seconds"


def category_guidance(task: Task, prompt_dir: Path = PROMPTS) -> str:
    path = prompt_dir / "categories" / f"{task.category}.md"
    if not path.is_file():
        path = prompt_dir / "categories" / "default.md"
    return path.read_text().strip()


def build_prompt(task: Task, *, iteration: int, max_iterations: int, workspace: Path | str = ".",
                 time_left_s: float | None = None, previous_feedback: str | None = None,
                 previous_verdict: str | None = None, prompt_dir: Path = PROMPTS,
                 platform: str | None = None) -> str:
    """The full prompt for one iteration; `platform` "cpu" says the run is on the CPU."""
    previous = ""
    if previous_feedback:
        previous = Template((prompt_dir / "previous.md").read_text()).substitute(
            feedback=_clip(previous_feedback.strip()),
            advice=ADVICE.get(previous_verdict or "", ""))
    editable = ", ".join(f"`{p}`" for p in task.editable)
    text = Template((prompt_dir / "base.md").read_text()).substitute(
        workspace=str(workspace), iteration=iteration, max_iterations=max_iterations,
        time_left=_duration(time_left_s), category_guidance=category_guidance(task, prompt_dir),
        editable=editable, previous=previous, task_card=task_card(task, platform).strip(),
        platform_note=f"\n\n{CPU_NOTE}" if platform == "cpu" else "")
    return text.strip() + "\n"
