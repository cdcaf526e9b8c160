"""Each adapter's output parsing, on outputs recorded from the real programs (samples/)."""

from __future__ import annotations

import json
from pathlib import Path

from agent_helpers import SAMPLES, sample

from agentkernelarena.agents.base import NOT_AUTHENTICATED
from agentkernelarena.agents.claude_code.parse import parse_stream as claude_parse
from agentkernelarena.agents.claude_code.parse import watch_line
from agentkernelarena.agents.codex.parse import parse_stream as codex_parse
from agentkernelarena.agents.cursor.parse import parse_stream as cursor_parse
from agentkernelarena.agents.mini_swe_agent.parse import parse_trajectory


def test_claude_success_totals_include_cache_reads():
    parsed = claude_parse(sample("claude_success.jsonl"))
    assert parsed.succeeded
    assert parsed.turns == 4
    # usage: input 4000 (uncached) + 800 cache reads; the arena counts all prompt tokens.
    assert (parsed.tokens_in, parsed.tokens_cached, parsed.tokens_out) == (4800, 800, 160)
    assert parsed.cost_usd == 0.0244
    assert parsed.model == "fake-model"


def test_claude_error_result_is_not_success():
    parsed = claude_parse(sample("claude_context_overflow.jsonl"))
    assert not parsed.succeeded
    assert any("Prompt is too long" in e for e in parsed.errors)


def test_claude_permission_denials_are_recorded():
    parsed = claude_parse(sample("claude_permission_denied.jsonl"))
    assert parsed.succeeded  # the CLI says success; the files tell the truth
    assert parsed.details["permission_denials"][0]["tool_name"] == "Edit"
    assert parsed.tokens_in == 1000 and parsed.tokens_cached == 600


def test_claude_garbage_has_no_result():
    parsed = claude_parse("Segmentation fault\n{not json\n[1, 2]\n")
    assert not parsed.succeeded
    assert parsed.details["unparsed_lines"] == 3
    assert "no result event" in parsed.errors[-1]


def test_claude_watch_stops_repeated_auth_failures():
    lines = sample("claude_auth_retry.jsonl").splitlines()
    assert watch_line(lines[0], "hint") is None
    assert watch_line(lines[1], "hint") is None  # one 401 may be a blip
    failure, message = watch_line(lines[2], "export ANTHROPIC_API_KEY")
    assert failure == NOT_AUTHENTICATED and "ANTHROPIC_API_KEY" in message


def test_codex_success_sums_turn_usage():
    parsed = codex_parse(sample("codex_success.jsonl"))
    assert parsed.succeeded
    assert (parsed.tokens_in, parsed.tokens_cached, parsed.tokens_out) == (4800, 800, 160)
    assert parsed.cost_usd is None  # Codex reports none: the harness prices it
    assert parsed.turns is not None and parsed.turns >= 3
    assert "Model metadata" in parsed.details["warnings"][0]  # non-fatal, kept as a warning


def test_codex_failures_carry_their_messages():
    for name, needle in [("codex_unauthorized.jsonl", "401"),
                         ("codex_context_overflow.jsonl", "context window"),
                         ("codex_rate_limited.jsonl", "429")]:
        parsed = codex_parse(sample(name))
        assert not parsed.succeeded, name
        assert any(needle in e for e in parsed.errors), name
        assert parsed.tokens_in is None


def test_cursor_result_usage_in_camel_case():
    parsed = cursor_parse(sample("cursor_success.jsonl"))
    assert parsed.succeeded
    assert parsed.turns == 3  # two tool calls and the answer
    assert (parsed.tokens_in, parsed.tokens_cached, parsed.tokens_out) == (2600, 500, 120)
    assert parsed.model == "sonnet-4.5"


def test_cursor_snake_case_usage_and_errors():
    text = json.dumps({"type": "result", "subtype": "success", "is_error": False,
                       "usage": {"input_tokens": 10, "output_tokens": 2,
                                 "cache_read_tokens": 4}})
    parsed = cursor_parse(text)
    assert (parsed.tokens_in, parsed.tokens_out, parsed.tokens_cached) == (14, 2, 4)
    parsed = cursor_parse(sample("cursor_error.jsonl"))
    assert not parsed.succeeded and "CURSOR_API_KEY" in parsed.errors[-1]


def test_mini_trajectory_usage_and_status():
    parsed = parse_trajectory(SAMPLES / "mini_traj.json")
    assert parsed.succeeded
    assert parsed.turns == 4
    assert (parsed.tokens_in, parsed.tokens_cached, parsed.tokens_out) == (4800, 800, 160)
    assert parsed.cost_usd is None  # instance_cost 0: unknown model, priced by the harness
    assert parsed.details["exit_status"] == "Submitted"


def test_mini_trajectory_exception_status(tmp_path: Path):
    parsed = parse_trajectory(SAMPLES / "mini_traj_auth_error.json")
    assert not parsed.succeeded
    assert parsed.errors[0].startswith("AuthenticationError")
    missing = parse_trajectory(tmp_path / "nope.json")
    assert not missing.succeeded and "missing" in missing.errors[0]
    (tmp_path / "bad.json").write_text("{")
    assert not parse_trajectory(tmp_path / "bad.json").succeeded
