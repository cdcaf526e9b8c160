"""The result channel between the worker and the supervisor: JSON lines, each carrying a MAC
chained over every line before it.

The candidate runs in the worker's process and can write to any file that process has open; the
chain makes lines it writes (a forged "done" with a made-up speedup, say) fail verification. The
key reaches the worker over stdin and lives only in the writer's closure.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from pathlib import Path
from time import monotonic as _monotonic
from typing import Any


def _chained_mac(key: bytes, previous: bytes, payload: bytes) -> bytes:
    """A line's MAC: over the previous line's MAC and this payload (the chain both sides use)."""
    return hmac.new(key, previous + payload, hashlib.sha256).hexdigest().encode()


def _signer(key: bytes) -> Any:
    """Chained MACs over the event lines, so that lines the candidate writes into the channel
    (forged results) do not verify. The key only lives in this closure."""
    state = {"previous": b""}

    def sign(payload: bytes) -> bytes:
        state["previous"] = _chained_mac(key, state["previous"], payload)
        return state["previous"]

    return sign


class Events:
    """Append-only, authenticated JSON-lines channel to the supervisor."""

    def __init__(self, path: str, key: bytes) -> None:
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        self._started = _monotonic()
        self._sign = _signer(key)
        self.split: str | None = None

    def emit(self, event: str, **fields: Any) -> None:
        record = {"event": event, "t": round(_monotonic() - self._started, 4), **fields}
        if self.split is not None:
            record["split"] = self.split
        payload = json.dumps(record, default=str).encode()
        os.write(self._fd, self._sign(payload) + b" " + payload + b"\n")


class EventReader:
    """Reads the channel incrementally: each poll verifies and parses only the lines written
    since the last one (the supervisor polls every 50 ms while the worker runs)."""

    def __init__(self, path: Path, key: bytes) -> None:
        self.path = path
        self._key = key
        self._offset = 0
        self._previous = b""
        self._stopped = False
        self.events: list[dict[str, Any]] = []

    def poll(self) -> list[dict[str, Any]]:
        """Every verified event so far. Reading stops at a line whose MAC does not chain
        (reported once as forged) or that is not JSON; a torn last line (a killed worker, or
        one still being written) waits for its newline."""
        if self._stopped or not self.path.exists():
            return self.events
        with open(self.path, "rb") as channel:
            channel.seek(self._offset)
            data = channel.read()
        end = data.rfind(b"\n")
        if end < 0:
            return self.events
        self._offset += end + 1
        for line in data[:end].split(b"\n"):
            mac, _, payload = line.partition(b" ")
            if not hmac.compare_digest(mac, _chained_mac(self._key, self._previous, payload)):
                self.events.append({"event": "forged", "line": len(self.events) + 1})
                self._stopped = True
                break
            self._previous = mac
            try:
                self.events.append(json.loads(payload))
            except json.JSONDecodeError:
                self._stopped = True
                break
        return self.events


def read_events(path: Path, key: bytes) -> list[dict[str, Any]]:
    """The verified events of a whole channel (see EventReader.poll)."""
    return EventReader(path, key).poll()
