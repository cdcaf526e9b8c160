"""A fake model server for end-to-end agent tests: loopback only, bounded, scripted.

It speaks the three wire protocols the agents use (Anthropic Messages with SSE streaming, OpenAI
Responses with streaming, OpenAI chat completions) and plays one scripted conversation on each:
look at the kernel, edit it (a real edit that keeps it correct), run the local `./check`, finish.
The step is derived from the request itself (how many tool results it already holds), so the
server keeps no per-client state and any number of agents can share it.

Every reply reports fixed usage (USAGE below) so tests can check the recorded token counts.
`mode` injects failures: "unauthorized", "rate_limited", "context_overflow", "garbage".
"""

from __future__ import annotations

import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

OLD = "_scale_add[(triton.cdiv(n, 1024),)](x, y, out, n, alpha, BLOCK=1024)"
NEW = "_scale_add[(triton.cdiv(n, 2048),)](x, y, out, n, alpha, BLOCK=2048)  # fake-model edit"
SED_EDIT = ("sed -i -e 's/cdiv(n, 1024)/cdiv(n, 2048)/' "
            "-e 's/BLOCK=1024)$/BLOCK=2048)  # fake-model edit/' kernel.py")
MARKER = "# fake-model edit"
USAGE = {"input": 1000, "cached": 200, "output": 40}  # per reply; input excludes cached
MAX_REQUESTS = 200


def edited(text: str) -> str:
    return text.replace(OLD, NEW)


class Conversation:
    """Which scripted step a request is at, and what the fake saw (for assertions)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.requests: list[dict[str, Any]] = []
        self.saw_check_output = False

    def record(self, path: str, body: dict[str, Any]) -> None:
        with self.lock:
            self.requests.append({"path": path, "model": body.get("model"),
                                  "tools": _tool_names(body)})

    def note_check(self, text: str) -> None:
        if "verdict:" in text:
            self.saw_check_output = True


def _tool_names(body: dict[str, Any]) -> list[str]:
    names = []
    for tool in body.get("tools") or []:
        if isinstance(tool, dict):
            names.append(tool.get("name") or (tool.get("function") or {}).get("name") or "")
    return names


# ---------------------------------------------------------------------------- Anthropic Messages
def anthropic_step(body: dict[str, Any], convo: Conversation) -> list[dict[str, Any]]:
    """Content blocks for the next assistant message (Claude Code's Read/Edit/Bash tools)."""
    messages = body.get("messages") or []
    system = json.dumps(body.get("system", ""))
    cwd = re.search(r"Primary working directory: ([^\s\\]+)", system)
    tools = _tool_names(body)
    for message in messages:
        content = message.get("content")
        if isinstance(content, list):
            for block in content:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    convo.note_check(json.dumps(block.get("content")))
    step = sum(1 for m in messages if m.get("role") == "assistant")
    if not cwd or "Edit" not in tools:
        return [{"type": "text", "text": "OK."}]
    kernel = f"{cwd.group(1)}/kernel.py"
    script = [
        {"type": "tool_use", "name": "Read", "input": {"file_path": kernel}},
        {"type": "tool_use", "name": "Edit",
         "input": {"file_path": kernel, "old_string": OLD, "new_string": NEW}},
        {"type": "tool_use", "name": "Bash", "input": {"command": "./check",
                                                        "description": "Run the local check"}},
    ]
    if step < len(script):
        return [{"type": "text", "text": f"Step {step + 1}."},
                {**script[step], "id": f"toolu_{step:04d}"}]
    return [{"type": "text", "text": "Done: doubled the block size."}]


def anthropic_events(body: dict[str, Any], blocks: list[dict[str, Any]]) -> list[tuple[str, Any]]:
    events: list[tuple[str, Any]] = [("message_start", {"type": "message_start", "message": {
        "id": f"msg_{time.monotonic_ns()}", "type": "message", "role": "assistant",
        "model": body.get("model", "fake"), "content": [], "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": USAGE["input"], "cache_read_input_tokens": USAGE["cached"],
                  "cache_creation_input_tokens": 0, "output_tokens": 1}}})]
    for index, block in enumerate(blocks):
        if block["type"] == "text":
            start = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        else:
            start = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        events += [
            ("content_block_start", {"type": "content_block_start", "index": index,
                                     "content_block": start}),
            ("content_block_delta", {"type": "content_block_delta", "index": index,
                                     "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": index}),
        ]
    stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
    events += [
        ("message_delta", {"type": "message_delta",
                           "delta": {"stop_reason": stop, "stop_sequence": None},
                           "usage": {"output_tokens": USAGE["output"]}}),
        ("message_stop", {"type": "message_stop"}),
    ]
    return events


# ----------------------------------------------------------------------------- OpenAI Responses
def responses_step(body: dict[str, Any], convo: Conversation) -> dict[str, Any]:
    """The next output item for Codex: shell commands through its exec tool, then a message."""
    items = body.get("input") or []
    calls = 0
    for item in items:
        if not isinstance(item, dict):
            continue
        if item.get("type") in ("function_call", "custom_tool_call", "local_shell_call"):
            calls += 1
        if item.get("type") in ("function_call_output", "custom_tool_call_output"):
            convo.note_check(json.dumps(item.get("output")))
    tools = _tool_names(body)
    tool = next((t for t in ("exec_command", "shell", "container.exec") if t in tools), None)
    script = ["cat kernel.py", SED_EDIT, "./check"]
    if tool is None or calls >= len(script):
        return {"type": "message", "id": f"msg_{calls}", "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": "Done.", "annotations": []}]}
    command = script[calls]
    args = {"cmd": command} if tool == "exec_command" else {"command": ["bash", "-lc", command]}
    return {"type": "function_call", "id": f"fc_{calls}", "call_id": f"call_{calls}",
            "name": tool, "arguments": json.dumps(args), "status": "completed"}


def responses_events(body: dict[str, Any], item: dict[str, Any]) -> list[tuple[str, Any]]:
    rid = f"resp_{time.monotonic_ns()}"
    base = {"id": rid, "object": "response", "created_at": int(time.time()),
            "model": body.get("model", "fake"), "output": []}
    usage = {"input_tokens": USAGE["input"] + USAGE["cached"],
             "input_tokens_details": {"cached_tokens": USAGE["cached"]},
             "output_tokens": USAGE["output"], "output_tokens_details": {"reasoning_tokens": 0},
             "total_tokens": USAGE["input"] + USAGE["cached"] + USAGE["output"]}
    return [
        ("response.created", {"type": "response.created", "sequence_number": 0,
                              "response": {**base, "status": "in_progress"}}),
        ("response.output_item.added", {"type": "response.output_item.added",
                                        "sequence_number": 1, "output_index": 0, "item": item}),
        ("response.output_item.done", {"type": "response.output_item.done",
                                       "sequence_number": 2, "output_index": 0, "item": item}),
        ("response.completed", {"type": "response.completed", "sequence_number": 3,
                                "response": {**base, "status": "completed", "output": [item],
                                             "usage": usage}}),
    ]


# ----------------------------------------------------------------------------- chat completions
def chat_step(body: dict[str, Any], convo: Conversation) -> dict[str, Any]:
    """The next assistant message: mini-swe-agent's `bash` tool, or the arena's own tools."""
    messages = body.get("messages") or []
    tools = _tool_names(body)
    for message in messages:
        if message.get("role") == "tool":
            convo.note_check(json.dumps(message.get("content")))
    step = sum(1 for m in messages if m.get("role") == "assistant")
    if "bash" in tools:
        script = ["cat kernel.py", SED_EDIT, "./check",
                  "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"]
        calls = [("bash", {"command": script[min(step, len(script) - 1)]})]
    elif "write_file" in tools:
        if step == 0:
            calls = [("read_file", {"path": "kernel.py"})]
        elif step == 1:
            kernel = next((m.get("content") for m in messages if m.get("role") == "tool"), "")
            calls = [("write_file", {"path": "kernel.py", "content": edited(str(kernel))})]
        elif step == 2:
            calls = [("run_check", {})]
        else:
            calls = [("finish", {"summary": "doubled the block size"})]
    else:
        return {"role": "assistant", "content": "OK."}
    return {"role": "assistant", "content": f"Step {step + 1}.", "tool_calls": [
        {"id": f"call_{step}_{i}", "type": "function",
         "function": {"name": name, "arguments": json.dumps(args)}}
        for i, (name, args) in enumerate(calls)]}


def chat_reply(body: dict[str, Any], message: dict[str, Any]) -> dict[str, Any]:
    return {"id": f"chatcmpl-{time.monotonic_ns()}", "object": "chat.completion",
            "created": int(time.time()), "model": body.get("model", "fake"),
            "choices": [{"index": 0, "message": message,
                         "finish_reason": "tool_calls" if message.get("tool_calls") else "stop"}],
            "usage": {"prompt_tokens": USAGE["input"] + USAGE["cached"],
                      "completion_tokens": USAGE["output"],
                      "total_tokens": USAGE["input"] + USAGE["cached"] + USAGE["output"],
                      "prompt_tokens_details": {"cached_tokens": USAGE["cached"]}}}


# ---------------------------------------------------------------------------------- the server
_ERRORS = {
    "unauthorized": (401, "authentication_error", "invalid x-api-key", "invalid_api_key"),
    "rate_limited": (429, "rate_limit_error", "Rate limit exceeded", "rate_limit_exceeded"),
    "context_overflow": (400, "invalid_request_error", "prompt is too long: 300000 tokens > "
                         "200000 maximum; maximum context length exceeded",
                         "context_length_exceeded"),
}


class _Handler(BaseHTTPRequestHandler):
    server: FakeModelServer  # type: ignore[assignment]
    protocol_version = "HTTP/1.1"
    timeout = 30  # a client that connects and goes quiet does not hold a thread for long

    def log_message(self, *args: Any) -> None:  # quiet
        pass

    def do_HEAD(self) -> None:  # noqa: N802
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self) -> None:  # noqa: N802
        self._json(404, {"error": {"message": "not found", "type": "not_found"}})

    def do_POST(self) -> None:  # noqa: N802
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            body = {}
        path = self.path.split("?")[0]
        convo = self.server.conversation
        convo.record(path, body)
        if len(convo.requests) > MAX_REQUESTS:
            self._json(500, {"error": {"message": "fake server: request budget spent"}})
            return
        mode = self.server.mode
        if mode == "garbage":
            self._raw(200, b"\x00\x01 this is not json {{{", "application/json")
            return
        if mode in _ERRORS:
            status, kind, message, code = _ERRORS[mode]
            if path.endswith("/messages"):
                payload: dict[str, Any] = {"type": "error",
                                           "error": {"type": kind, "message": message}}
            else:
                payload = {"error": {"message": message, "type": kind, "code": code}}
            self._json(status, payload, retry_after=mode == "rate_limited")
            return
        if path.endswith("/messages"):
            self._sse(anthropic_events(body, anthropic_step(body, convo)), named=True)
        elif path.endswith("/responses"):
            self._sse(responses_events(body, responses_step(body, convo)), named=True)
        elif path.endswith("/chat/completions"):
            reply = chat_reply(body, chat_step(body, convo))
            if body.get("stream"):
                self._chat_stream(reply)
            else:
                self._json(200, reply)
        else:
            self._json(404, {"error": {"message": f"no route {path}"}})

    def _raw(self, status: int, data: bytes, ctype: str, retry_after: bool = False) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        if retry_after:
            self.send_header("Retry-After", "0")
        self.end_headers()
        self.wfile.write(data)

    def _json(self, status: int, payload: Any, retry_after: bool = False) -> None:
        self._raw(status, json.dumps(payload).encode(), "application/json", retry_after)

    def _sse(self, events: list[tuple[str, Any]], named: bool) -> None:
        chunks = []
        for name, data in events:
            prefix = f"event: {name}\n" if named else ""
            chunks.append(f"{prefix}data: {json.dumps(data)}\n\n")
        self._raw(200, "".join(chunks).encode(), "text/event-stream")

    def _chat_stream(self, reply: dict[str, Any]) -> None:
        message = reply["choices"][0]["message"]
        delta = {"role": "assistant", "content": message.get("content")}
        if message.get("tool_calls"):
            delta["tool_calls"] = [{**c, "index": i} for i, c in enumerate(message["tool_calls"])]
        chunk = {**reply, "object": "chat.completion.chunk",
                 "choices": [{"index": 0, "delta": delta,
                              "finish_reason": reply["choices"][0]["finish_reason"]}]}
        data = f"data: {json.dumps(chunk)}\n\ndata: [DONE]\n\n".encode()
        self._raw(200, data, "text/event-stream")


class FakeModelServer(ThreadingHTTPServer):
    """`with FakeModelServer() as fake: fake.url` — serves on 127.0.0.1 in a daemon thread."""

    daemon_threads = True

    def __init__(self, mode: str = "ok") -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.mode = mode
        self.conversation = Conversation()
        self._thread = threading.Thread(target=self.serve_forever, kwargs={"poll_interval": 0.1},
                                        daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def __enter__(self) -> FakeModelServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.shutdown()
        self.server_close()
        self._thread.join(timeout=5)
