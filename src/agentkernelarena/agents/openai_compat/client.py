"""A minimal chat-completions client (urllib, no SDK): the arena depends on no vendor package.

Errors are turned into the arena's failure classes right here, where the HTTP status is known:
401/403 -> not_authenticated, 429 (after retries) -> rate_limited, a 400 about the context
length -> context_overflow, anything unreadable -> crashed.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

from agentkernelarena.agents.base import CRASHED, NOT_AUTHENTICATED, RATE_LIMITED, TIMED_OUT
from agentkernelarena.agents.classify import match_failure


class ApiError(Exception):
    def __init__(self, failure: str, message: str) -> None:
        super().__init__(message)
        self.failure = failure
        self.message = message


class ChatClient:
    def __init__(self, base_url: str, api_key: str | None, timeout_s: float = 300,
                 retries: int = 3) -> None:
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.api_key = api_key
        self.timeout_s = timeout_s
        self.retries = retries

    def complete(self, body: dict[str, Any], deadline: float) -> dict[str, Any]:
        """One chat completion; retries 429 and 5xx with backoff while time is left."""
        data = json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        delay = 1.0
        for attempt in range(self.retries + 1):
            left = deadline - time.monotonic()
            if left <= 0:
                raise ApiError(TIMED_OUT, "no time left for another model call")
            request = urllib.request.Request(self.url, data=data, headers=headers, method="POST")
            try:
                with urllib.request.urlopen(request, timeout=min(self.timeout_s, left)) as resp:
                    raw = resp.read()
            except urllib.error.HTTPError as exc:
                text = exc.read().decode(errors="replace")[:2000]
                failure = self._http_failure(exc.code, text)
                if failure in (RATE_LIMITED, CRASHED) and exc.code in (429, 500, 502, 503, 529) \
                        and attempt < self.retries:
                    time.sleep(min(delay, max(0.0, deadline - time.monotonic())))
                    delay *= 2
                    continue
                raise ApiError(failure, f"HTTP {exc.code} from {self.url}: {text[:500]}") from None
            except (urllib.error.URLError, TimeoutError, OSError) as exc:
                reason = getattr(exc, "reason", exc)
                if deadline - time.monotonic() <= 0:
                    raise ApiError(TIMED_OUT, f"model call to {self.url} ran out of time") \
                        from None
                raise ApiError(CRASHED, f"cannot reach {self.url}: {reason}") from None
            try:
                reply = json.loads(raw)
                reply["choices"][0]["message"]  # noqa: B018 - shape check
            except (ValueError, KeyError, IndexError, TypeError):  # ValueError: bad JSON, bad UTF
                raise ApiError(CRASHED, f"{self.url} answered something that is not a chat "
                               f"completion: {raw[:200]!r}") from None
            return reply
        raise ApiError(RATE_LIMITED, "still rate-limited after retries")  # pragma: no cover

    @staticmethod
    def _http_failure(status: int, text: str) -> str:
        if status in (401, 403):
            return NOT_AUTHENTICATED
        if status == 429:
            return RATE_LIMITED
        return match_failure(text) or CRASHED
