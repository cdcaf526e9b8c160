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
