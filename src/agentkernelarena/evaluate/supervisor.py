"""Driving one evaluation's two workers through its session, and ending them whatever happened.

The judge (trusted: task code only) runs as the user; the runner (the candidate's code) runs in
the evaluation sandbox (sandbox.py): no network, no secrets, its own pid namespace, writable
only its folder. Both are killed with everything they started when the evaluation ends, so a
daemon the candidate forked cannot outlive it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from agentkernelarena.evaluate.gate import DeviceGate
from agentkernelarena.evaluate.protocol import Peer
from agentkernelarena.evaluate.session import Session, SessionOutcome
from agentkernelarena.evaluate.witness import Freezer


def run_session(request: dict[str, Any], io_dir: Path, judge: Peer, runner: Peer,
                deadlines: dict[str, float], prepared: bool = False,
                before_timing: Callable[[], None] | None = None,
                gate: DeviceGate | None = None) -> SessionOutcome:
    """One evaluation from start to end; every way it can end is an event in the outcome.
    `prepared`: both workers were started ahead and have answered `prepare`.
    `before_timing`: called once, before the first timed round (standby.py).
    `gate`: the GPU's gate when evaluations share it (gate.py): timed rounds run alone."""
    try:
        session = Session(request, io_dir, judge, runner, deadlines,
                          Freezer(runner.proc.pid), prepared=prepared,
                          before_timing=before_timing, gate=gate)
        outcome = session.run()
        outcome.cost = session.cost_record()
        return outcome
    finally:
        # Both are killed, not asked to exit: the runner is stopped between its commands, and
        # nothing either holds is worth a graceful end (the events are in, the files copied).
        for peer in (runner, judge):
            peer.close()
