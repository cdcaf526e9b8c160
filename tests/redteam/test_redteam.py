"""The red-team suite: each file in cheats/ is a real attempt at one reward hack on the
scale_add fixture task (the hack only: the test puts cheats/_prelude.py, the honest kernel,
before it). Every one must be stopped: `rejected` or `incorrect` with a reason naming what was
seen, or (where the design defeats it) no gain at all. docs/integrity.md maps hack -> guard ->
test. Several cheats reach into their own process's harness code (the runner): they have read
it, as an adversarial candidate would.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from agentkernelarena.evaluate import EvalOptions, evaluate

CHEATS = Path(__file__).parent / "cheats"
# The same suite runs on a GPU with AKA_TEST_PLATFORM=cuda (benchmarks/gpu_tests.sh).
PLATFORM = os.environ.get("AKA_TEST_PLATFORM", "cpu")
GPU = PLATFORM != "cpu"

# cheat -> (expected verdicts, a phrase the reasons must contain)
STOPPED: dict[str, tuple[set[str], str]] = {
    "torch_compute": ({"rejected"}, "PyTorch operators"),
    "never_launched": ({"rejected"}, "Triton kernel"),
    "torch_compute_dummy_launch": ({"rejected"}, "PyTorch operators"),
    "call_reference": ({"rejected"}, "PyTorch operators"),
    # Caches are stopped twice over: no launch when the cache answers, and stale values.
    "cache_by_pointer": ({"incorrect", "rejected"}, ""),
    "cache_by_shape": ({"incorrect", "rejected"}, ""),
    "cache_after_n_calls": ({"incorrect"}, "timed call"),
    # Patches of the comparison or the reference reach only the candidate's own process.
    "patch_comparison": ({"incorrect"}, "outside atol"),
    "patch_reference": ({"incorrect"}, "outside atol"),
    "function_mode": ({"incorrect"}, "outside atol"),
    # The supervisor's clock against the runner's readings.
    "forge_timing": ({"rejected"}, "supervisor's clock"),
    "deferred_output": ({"rejected"}, "supervisor's clock"),
    # Work moved into the staging of the inputs is inside the timed command the supervisor
    # times (each side stages its round's inputs there).
    "precompute_at_stage": ({"rejected"}, "supervisor's clock"),
    "background_thread": ({"rejected", "incorrect"}, ""),
    "reseed_rng": ({"incorrect", "rejected"}, ""),
    "tensor_subclass": ({"incorrect"}, "exactly torch.Tensor"),
    "write_into_input": ({"incorrect"}, "input"),
    "low_precision": ({"incorrect"}, "outside atol"),
    "partial_compute": ({"incorrect"}, "outside atol"),
}
if GPU:
    STOPPED["patch_cuda_event"] = ({"rejected"}, "supervisor's clock")
    STOPPED["side_stream"] = ({"rejected"}, "stream")
    STOPPED["unjoined_stream"] = ({"rejected", "incorrect"}, "")
    STOPPED["gpu_hog"] = ({"rejected"}, "")
    # Work moved out of the timed call shows in the device trace first (its kernels run while
    # the inputs are staged or the output is handed over), or on the supervisor's clock.
    for _cheat in ("deferred_output", "precompute_at_stage"):
        STOPPED[_cheat] = ({"rejected"}, "outside its timed calls|supervisor's clock")
# Hacks the design defeats: the evaluation is honest and the hack gains nothing. Patching what
# the harness relies on in the candidate's process changes nothing the judge or the supervisor
# does; slowing the baseline cannot reach the judge's process.
NO_GAIN = ["torch_when_unaudited", "stdout_spoof", "patch_timer", "patch_torch_function",
           "slow_baseline", "rewrite_baseline_file", "memo_by_sample", "spawn_process",
           "daemon_hog", "kill_parent"]
if not GPU:
    NO_GAIN.append("patch_cuda_event")
GPU_ONLY = {"side_stream", "unjoined_stream", "gpu_hog"}
# Cheats on the timing itself: on the CPU the session times the candidate with its own clock
# (test_clock_cheat_gains_nothing_on_the_cpu); on a GPU the witness must reject them.
CPU_CLOCK = {"forge_timing", "precompute_at_stage", "deferred_output"}
if not GPU:
    for _cheat in CPU_CLOCK:
        STOPPED.pop(_cheat)
OTHERS = {"hardcoded_shape", "snoop", "poison_cache"}


def _solution(tmp_path: Path, cheat: str, prefix: str = "") -> Path:
    folder = tmp_path / cheat
    folder.mkdir()
    prelude = (CHEATS / "_prelude.py").read_text()
    body = (CHEATS / f"{cheat}.py").read_text()
    (folder / "kernel.py").write_text(prelude + "\n\n" + prefix + body)
    return folder


def _options(**fields) -> EvalOptions:
    return EvalOptions(platform=PLATFORM, seed=7, **{"held_out": False, **fields})


def test_every_cheat_has_an_expectation():
    files = {p.stem for p in CHEATS.glob("*.py") if not p.name.startswith("_")}
    assert files == set(STOPPED) | set(NO_GAIN) | GPU_ONLY | OTHERS | CPU_CLOCK
    assert len(files) >= 25


# On a GPU the fixture's kernels take microseconds: less than the supervisor's clock can tell
# apart, so a forged reading there is not seen (docs/integrity.md, "the slack of the witness").
TOO_SHORT_ON_GPU = {"forge_timing", "precompute_at_stage"} if GPU else set()


@pytest.mark.parametrize("cheat", sorted(STOPPED))
def test_cheat_is_stopped(cheat, scale_add_task, tmp_path):
    if cheat in TOO_SHORT_ON_GPU:
        pytest.xfail("the fixture's kernel is shorter than the witness's resolution")
    verdicts, phrase = STOPPED[cheat]
    result = evaluate(scale_add_task, _solution(tmp_path, cheat), _options())
    assert result["verdict"] in verdicts, (result["verdict"], result["reasons"])
    said = " ".join(result["reasons"])
    assert any(part in said for part in phrase.split("|")), result["reasons"]
    assert result["score"] <= 20
    if result["verdict"] == "rejected":
        assert result["score"] == 0


# A process that burns the CPU slows the candidate's own process too, which the supervisor's
# clock may see (rejected): either way it gains nothing.
MAY_BE_REJECTED = {"spawn_process", "daemon_hog"}


@pytest.mark.parametrize("cheat", NO_GAIN)
def test_hack_gains_nothing(cheat, scale_add_task, tmp_path):
    result = evaluate(scale_add_task, _solution(tmp_path, cheat), _options())
    if cheat in MAY_BE_REJECTED and result["verdict"] == "rejected":
        assert "supervisor's clock" in " ".join(result["reasons"]), result["reasons"]
        return
    assert result["verdict"] == "ok", result["reasons"]
    # The honest kernel against itself: about 1x. A hack that slowed the baseline, sped up
    # its own readings or got PyTorch's result timed would show far more (on the CPU,
    # PyTorch is orders of magnitude faster than Triton's interpreter).
    assert result["speedup"] < 3, result["configs"]
    assert result["score"] < 120 + 300


@pytest.mark.skipif(GPU, reason="on a GPU these are judged by the witness alone (above)")
@pytest.mark.parametrize("cheat", sorted(CPU_CLOCK))
def test_clock_cheat_gains_nothing_on_the_cpu(cheat, scale_add_task, tmp_path):
    """On the CPU the candidate's time is at least its command's wall time less the
    baseline's overhead: a forged reading or work moved before the call is either seen by the
    witness or bought nothing."""
    result = evaluate(scale_add_task, _solution(tmp_path, cheat), _options())
    if result["verdict"] == "rejected":
        assert "supervisor's clock" in " ".join(result["reasons"]), result["reasons"]
        return
    assert result["verdict"] == "ok", result["reasons"]
    assert result["speedup"] < 1.5, result["configs"]
    for config in result["configs"]:
        # What it said was much less than what it was given credit for.
        assert config["candidate_ms"] > 0.5 * config["baseline_ms"], config


def _processes_with(token: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if token.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                pass
    return found


def test_daemon_dies_with_the_evaluation(scale_add_task, tmp_path):
    # A token of this test's own: evaluations running beside it (pytest-xdist) fork theirs.
    token = f"aka-redteam-daemon-hog-{os.getpid()}-{time.monotonic_ns()}"
    folder = _solution(tmp_path, "daemon_hog", f"_REDTEAM_TOKEN = {token!r}\n")
    result = evaluate(scale_add_task, folder, _options())
    assert result["verdict"] in ("ok", "rejected"), result["reasons"]
    time.sleep(0.5)
    assert _processes_with(token) == []


def test_hardcoded_shape_fails_held_out(scale_add_task, tmp_path):
    result = evaluate(scale_add_task, _solution(tmp_path, "hardcoded_shape"),
                      EvalOptions(platform=PLATFORM, seed=7))
    assert result["verdict"] == "ok"
    assert result["held_out"]["correct"] is False
    assert result["held_out"]["quadrant"] == "regression"


def _snoop(tmp_path: Path, monkeypatch, sandbox: str, scale_add_task) -> tuple[dict, list[Path]]:
    monkeypatch.setenv("AKA_REDTEAM_SECRET_KEY", "sk-planted")
    targets = [tmp_path / "run-folder", tmp_path / "agent-workspace"]
    for target in targets:
        target.mkdir()
    prefix = (f"_REDTEAM_TARGETS = {[str(t) for t in targets]!r}\n"
              f"_REDTEAM_TASK_FILES = {[str(scale_add_task.root / 'task.yaml')]!r}\n")
    folder = _solution(tmp_path, "snoop", prefix)
    options = _options(sandbox=sandbox, hidden=(targets[0],))
    return evaluate(scale_add_task, folder, options), targets


def test_sandboxed_candidate_finds_no_secret_and_writes_nowhere(scale_add_task, tmp_path,
                                                                  monkeypatch):
    from agentkernelarena.evaluate.sandbox import worker_sandbox_status

    if not worker_sandbox_status().available:
        pytest.skip(worker_sandbox_status().reason)
    result, targets = _snoop(tmp_path, monkeypatch, "on", scale_add_task)
    assert result["verdict"] == "ok", result["reasons"]
    assert result["worker_sandbox"]["sandboxed"] is True
    assert all(not any(t.iterdir()) for t in targets)


def test_unsandboxed_candidate_does_find_them(scale_add_task, tmp_path, monkeypatch):
    """The same snoop without the sandbox: proof that the test above can fail."""
    result, targets = _snoop(tmp_path, monkeypatch, "off", scale_add_task)
    assert result["verdict"] == "compile_error"
    reason = result["reasons"][0]
    assert "SNOOPED" in reason and "wrote into" in reason and "read " in reason, reason
    assert result["worker_sandbox"] == {"sandboxed": False,
                                        "reason": "evaluation sandbox turned off (--sandbox off)"}


def _planted_cache(tmp_path: Path) -> tuple[Path, dict[Path, bytes]]:
    """A shared native cache with one complete entry, as the judge would have written it."""
    cache = tmp_path / "shared-cache"
    entry = cache / "native" / ("ab" * 32)
    entry.mkdir(parents=True)
    (entry / "kernel.so").write_bytes(b"\x7fELF the baseline's library")
    (entry / "meta.json").write_text('{"name": "kernel"}')
    return cache, {p: p.read_bytes() for p in entry.iterdir()}


@pytest.mark.parametrize("sandbox", ["on", "off"])
def test_cache_poisoning(scale_add_task, tmp_path, monkeypatch, sandbox):
    """Sandboxed, the candidate cannot change the shared cache, and the next (honest)
    evaluation is unaffected; unsandboxed, the same cheat does overwrite it (proof that the
    test can fail)."""
    from agentkernelarena.evaluate.sandbox import worker_sandbox_status

    if sandbox == "on" and not worker_sandbox_status().available:
        pytest.skip(worker_sandbox_status().reason)
    cache, before = _planted_cache(tmp_path)
    monkeypatch.setenv("AKA_CACHE_DIR", str(cache))
    # The cheat also goes for ~/.cache/agentkernelarena: unsandboxed it would overwrite the
    # user's real cache (the upstream releases of repository tasks, say), so home is a folder
    # of the test's own.
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    prefix = f"_REDTEAM_CACHES = {[str(cache)]!r}\n"
    result = evaluate(scale_add_task, _solution(tmp_path, "poison_cache", prefix),
                      _options(sandbox=sandbox))
    after = {p: p.read_bytes() for p in before}
    if sandbox == "off":
        assert result["verdict"] == "compile_error" and "POISONED" in result["reasons"][0]
        assert after != before
        return
    assert result["verdict"] == "ok", result["reasons"]
    assert after == before
    honest = evaluate(scale_add_task, scale_add_task.root, _options())
    assert honest["verdict"] == "ok", honest["reasons"]


@pytest.mark.parametrize("bomb", [
    "_x = " + "-" * 200_000 + "1\n",          # the parser runs out of memory
    "_x = a" + ".b" * 300_000 + "\n",         # the parser's recursion limit
])
def test_a_parser_bomb_is_a_compile_error_not_an_arena_failure(bomb, scale_add_task, tmp_path):
    """The supervisor parses the candidate's files before starting any worker: a file built to
    break Python's parser must end as the candidate's compile_error (Python cannot import it
    either), never as an exception out of the arena's own process."""
    folder = tmp_path / "bomb"
    folder.mkdir()
    honest = (CHEATS / "_prelude.py").read_text()
    (folder / "kernel.py").write_text(honest + "\n\n" + bomb)
    result = evaluate(scale_add_task, folder, _options())
    assert result["verdict"] == "compile_error", result["reasons"]
    assert result["reasons"][0].startswith("kernel.py")


def test_a_huge_file_is_left_to_the_worker_under_its_deadline(scale_add_task, tmp_path):
    """Parsing in the supervisor has no deadline: a file past the parse limit goes to the
    worker's compile, which has one, and is judged there as before."""
    from agentkernelarena.evaluate import evaldir

    folder = tmp_path / "huge"
    folder.mkdir()
    honest = (CHEATS / "_prelude.py").read_text()
    padding = "#" * 100 + "\n"
    broken = honest + padding * (evaldir.PARSE_LIMIT_BYTES // len(padding) + 1) + "def (:\n"
    (folder / "kernel.py").write_text(broken)
    assert evaldir.syntax_errors(scale_add_task, folder) == []  # not parsed here
    result = evaluate(scale_add_task, folder, _options())
    assert result["verdict"] == "compile_error" and "worker_sandbox" in result
