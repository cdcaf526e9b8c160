"""The tune agent's search loop with a stand-in check: seeds, budgets, time limit, SIGTERM."""

from __future__ import annotations

import json
import math
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agentkernelarena.agents.tune.searcher import loop
from agentkernelarena.agents.tune.searcher.checking import parse
from agentkernelarena.agents.tune.searcher.params import BLOCK, NUM_WARPS, find_params
from agentkernelarena.agents.tune.searcher.propose import descend

REPO = Path(__file__).resolve().parents[2]
SOFTMAX = REPO / "src" / "agentkernelarena" / "suites" / "triton2triton" / "softmax" / "kernel.py"

# Prints what ./check prints. Speed: a pseudo-random but fixed function of the source; `WRONG`
# when the softmax BLOCK is below 256; sleeps `sleep` seconds (for variants only with
# `variants_only`), per fake.json.
FAKE_CHECK = r'''
import hashlib, json, re, sys, time
from pathlib import Path
conf = json.loads(Path("fake.json").read_text())
text = Path("kernel.py").read_text()
shipped = text == Path("shipped.txt").read_text()
if not (conf.get("variants_only") and shipped):
    time.sleep(conf.get("sleep", 0))
block = int(re.search(r"BLOCK = (\d+)", text).group(1))
correct = block >= 256
speed = 0.5 + int(hashlib.sha256(text.encode()).hexdigest()[:8], 16) / 2**32
if shipped:
    speed = 1.0
print("task t on cpu (timings not comparable: no GPU)")
print(f"verdict: {'ok' if correct else 'incorrect'}   compiled: True   correct: {correct}   "
      f"speedup: {speed:.3f}x   score: {100 * speed:.1f}")
print(f"  cfg-a: {'correct' if correct else 'WRONG'} max abs err 0 baseline 2.000 ms, "
      f"yours {2 / speed:.3f} ms, speedup {speed:.3f}x")
'''


@pytest.fixture
def make_workspace(tmp_path: Path):
    def make(name: str = "ws", **conf: object) -> Path:
        ws = tmp_path / name
        ws.mkdir()
        source = SOFTMAX.read_text()
        (ws / "kernel.py").write_text(source)
        (ws / "shipped.txt").write_text(source)
        (ws / "fake_check.py").write_text(FAKE_CHECK)
        (ws / "fake.json").write_text(json.dumps(conf))
        (ws / ".aka-workspace.json").write_text(json.dumps({"editable": ["kernel.py"]}))
        return ws

    return make


def _options(ws: Path, **kw: object) -> loop.Options:
    base = {"workspace": ws, "check": [sys.executable, "fake_check.py"], "max_checks": 12,
            "time_limit_s": 120.0}
    return loop.Options(**{**base, **kw})  # type: ignore[arg-type]


def _tried(capsys: pytest.CaptureFixture[str]) -> list[tuple[str, str]]:
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return [(e["label"], json.dumps(e["changed"], sort_keys=True)) for e in events
            if e["event"] == "check"]


def test_same_seed_same_variants_and_result(make_workspace, capsys) -> None:
    first = loop.run(_options(make_workspace("a"), seed=3))
    tried_a = _tried(capsys)
    second = loop.run(_options(make_workspace("b"), seed=3))
    tried_b = _tried(capsys)
    assert tried_a == tried_b and len(tried_a) == 12
    assert first["changed"] == second["changed"]
    others = set()
    for seed in (0, 1, 2):
        loop.run(_options(make_workspace(f"s{seed}"), seed=seed, max_checks=5))
        others.add(tuple(_tried(capsys)))
    assert len(others) > 1, "the seed does not change the order of the search"


def test_keeps_the_fastest_correct_variant_and_rejects_wrong_ones(make_workspace,
                                                                  capsys) -> None:
    ws = make_workspace()
    summary = loop.run(_options(ws, seed=0, max_checks=20))
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    checks = [e for e in events if e["event"] == "check"]
    wrong = [c for c in checks if c["verdict"] == "incorrect"]
    assert wrong, "BLOCK 128 (incorrect in the fake check) was never tried"
    assert all(c["configs"][0]["correct"] is False for c in wrong)
    best = max((c for c in checks if c["verdict"] == "ok"), key=lambda c: c["speedup"])
    final = (ws / "kernel.py").read_text()
    assert summary["kept"] == "tuned" and summary["best_speedup"] == best["speedup"]
    assert summary["changed"] == best["changed"]
    # What is left in the workspace is that variant, and only launch parameters differ.
    found = find_params(SOFTMAX.read_text(), "kernel.py")
    values = {k: v[1] for k, v in best["changed"].items()}
    from agentkernelarena.agents.tune.searcher.rewrite import rewrite
    assert final == rewrite(SOFTMAX.read_text(), found.params, values)
    accepted = [e for e in events if e["event"] == "accept"]
    assert accepted and accepted[-1]["speedup"] == best["speedup"]


def test_stops_at_the_check_budget(make_workspace) -> None:
    summary = loop.run(_options(make_workspace(), max_checks=3))
    assert summary["checks"] == 3 and summary["stop_reason"].startswith("check budget")


def test_stops_at_the_time_limit(make_workspace) -> None:
    ws = make_workspace(sleep=1.0)
    started = time.monotonic()
    summary = loop.run(_options(ws, max_checks=50, time_limit_s=loop.RESERVE_S + 3.5))
    took = time.monotonic() - started
    assert summary["stop_reason"].startswith("time limit"), summary
    assert 1 <= summary["checks"] <= 4 and took < loop.RESERVE_S + 3.5
    assert "BLOCK = " in (ws / "kernel.py").read_text()


def test_sigterm_leaves_the_best_version(make_workspace) -> None:
    """The arena's deadline: SIGTERM in the middle of measuring a variant."""
    ws = make_workspace(sleep=30, variants_only=True)
    proc = subprocess.Popen(
        [sys.executable, "-m", "agentkernelarena.agents.tune.searcher", "--workspace", str(ws),
         "--check", f"{sys.executable} fake_check.py", "--max-checks", "10"],
        stdout=subprocess.PIPE, text=True, cwd=ws)
    assert proc.stdout is not None
    for line in proc.stdout:
        if json.loads(line)["event"] == "check":  # the shipped version, measured
            break
    time.sleep(1.0)  # now a variant is in the workspace, being measured
    assert (ws / "kernel.py").read_text() != SOFTMAX.read_text()
    proc.send_signal(signal.SIGTERM)
    rest = proc.stdout.read()
    assert proc.wait(timeout=20) == 0
    summary = json.loads(rest.splitlines()[-1])
    assert summary["stop_reason"].startswith("stopped by SIGTERM")
    assert summary["kept"] == "shipped"
    assert (ws / "kernel.py").read_text() == SOFTMAX.read_text()


def test_a_failing_shipped_version_is_left_alone(make_workspace) -> None:
    ws = make_workspace()
    summary = loop.run(_options(ws, check=[sys.executable, "-c", "print('check failed: x')"]))
    assert summary["checks"] == 1 and summary["kept"] == "shipped"
    assert "does not pass the check" in summary["stop_reason"]
    assert (ws / "kernel.py").read_text() == SOFTMAX.read_text()


def test_nothing_tunable_runs_no_check_and_changes_nothing(make_workspace, tmp_path) -> None:
    ws = make_workspace()
    plain = "import torch\n\n\ndef forward(x):\n    return x.clone()\n"
    (ws / "kernel.py").write_text(plain)
    before = (ws / "kernel.py").stat().st_mtime_ns
    summary = loop.run(_options(ws, check=["false"]))
    assert (ws / "kernel.py").stat().st_mtime_ns == before  # not even rewritten
    assert summary["checks"] == 0 and summary["tunable"] == 0 and summary["kept"] == "shipped"
    assert summary["message"].startswith("nothing tunable")
    assert (ws / "kernel.py").read_text() == plain


def _toy_params():
    source = ("import triton\nimport triton.language as tl\n\n@triton.jit\n"
              "def k(x, B: tl.constexpr):\n    pass\n\ndef f(x):\n    k[(1,)](x, B=128)\n")
    found = find_params(source, "k.py")
    block = next(p for p in found.params if p.kind == BLOCK)
    warps = next(p for p in found.params if p.kind == NUM_WARPS)
    return found.params, block, warps


def test_descend_climbs_to_the_optimum_and_honours_min_gain() -> None:
    params, block, warps = _toy_params()

    def score(values):  # best at B=1024, num_warps=8
        b, w = values[block.key], values[warps.key] or 4
        return 10 - (math.log2(b) - 10) ** 2 - (math.log2(w) - 3) ** 2

    best_values, best = descend(params, score({block.key: 128, warps.key: None}), score, 0,
                                0.0, lambda: False)
    assert best_values == {block.key: 1024, warps.key: 8} and best == 10
    flat, _ = descend(params, 1.0, lambda v: 1.005, 0, 0.01, lambda: False)
    assert flat == {block.key: 128, warps.key: None}  # 0.5% is noise at min_gain 1%


def test_descend_stops_when_told() -> None:
    params, _, _ = _toy_params()
    calls = []
    descend(params, 1.0, lambda v: calls.append(v) or 2.0 + len(calls), 0, 0.0,
            lambda: len(calls) >= 4)
    assert len(calls) == 4


def test_parse_the_check_output() -> None:
    text = ("task triton2triton/softmax on cuda\n"
            "verdict: ok   compiled: True   correct: True   speedup: 1.099x   score: 229.9\n"
            "  M16-N512-float32: correct max abs err 3.2e-08 baseline 270.626 ms, yours 207.875"
            " ms, speedup 1.302x\n"
            "  M8-N1000-float16: correct max abs err 5.64e-05 baseline 19.0 us, yours 25.5 us, "
            "speedup 0.848x\n")
    result = parse(text)
    assert result.ok and result.platform == "cuda" and result.comparable
    assert result.speedup == 1.099 and result.configs[1]["ms"] == pytest.approx(0.0255)
    wrong = parse("task t on cpu (timings not comparable: no GPU)\n"
                  "verdict: incorrect   compiled: True   correct: False   speedup: -   "
                  "score: 20.0\n  a: WRONG max abs err 3\nreason: a: mismatch\n")
    assert not wrong.ok and wrong.configs == [{"name": "a", "correct": False}]
    assert wrong.reasons == ["a: mismatch"] and not wrong.comparable
    assert parse("check failed: no socket\n").error == "check failed: no socket"
