"""Errors a user can act on.

Expected failures (a bad task file, an unknown agent, a missing tool) raise `AkaError`; the CLI
prints its one-line message and hint without a traceback. Anything else is a bug and keeps its
traceback.
"""

from __future__ import annotations


class AkaError(Exception):
    """A failure the user can fix: `message` says what and where, `hint` what to do."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message if not self.hint else f"{self.message} ({self.hint})"


class TaskError(AkaError):
    """A task folder or task.yaml that is not valid."""


class ProblemList(list[AkaError]):
    """Problems collected by checks that go on after the first one (a run's config, its
    pre-flight), so that a config with three mistakes takes one run to fix, not three.
    `fields`: the config fields found invalid (later checks skip what depends on them)."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: set[str] = set()

    def add(self, error: AkaError, field: str | None = None) -> None:
        self.append(error)
        if field is not None:
            self.fields.add(field)

    def raise_all(self) -> None:
        """Nothing for no problem; the problem itself for one; a ManyProblems for more."""
        if len(self) == 1:
            raise self[0]
        if self:
            raise ManyProblems(list(self))


class ManyProblems(AkaError):
    """Several problems, one line each with its fix; the CLI prints them all."""

    def __init__(self, problems: list[AkaError]) -> None:
        lines = "\n".join(f"  - {p}" for p in problems)
        super().__init__(f"{len(problems)} problems (all of them, found before anything "
                         f"started):\n{lines}")
        self.problems = problems
