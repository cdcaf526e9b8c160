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


def _signer(key: bytes) -> Any:
    """Chained MACs over the event lines, so that lines the candidate writes into the channel
    (forged results) do not verify. The key only lives in this closure."""
    state = {"previous": b""}

    def sign(payload: bytes) -> str:
        mac = hmac.new(key, state["previous"] + payload, hashlib.sha256).hexdigest()
        state["previous"] = mac.encode()
        return mac

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
        os.write(self._fd, self._sign(payload).encode() + b" " + payload + b"\n")



def read_events(path: Path, key: bytes) -> list[dict[str, Any]]:
    """The verified events; reading stops at a torn last line (a killed worker), and a line whose
    MAC does not chain is reported as forged."""
    if not path.exists():
        return []
    events: list[dict[str, Any]] = []
    previous = b""
    # Complete lines end with a newline; what follows the last one is a torn write, ignored.
    complete = path.read_bytes().split(b"\n")[:-1]
    for index, line in enumerate(complete):
        mac, _, payload = line.partition(b" ")
        expected = hmac.new(key, previous + payload, hashlib.sha256).hexdigest().encode()
        if not hmac.compare_digest(mac, expected):
            events.append({"event": "forged", "line": index + 1})
            break
        previous = mac
        try:
            value = json.loads(payload)
        except json.JSONDecodeError:
            break
        events.append(value)
    return events
