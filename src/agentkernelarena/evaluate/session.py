"""One evaluation, driven from the supervisor: the gates, across the judge and the runner.

The supervisor (this module, in the `aka` process) holds the task's configurations and seeds
and sends the runner nothing but input files, one call at a time: a held-out configuration
reaches the candidate's process as the inputs of the call being made, never before. The judge
makes and checks; the runner only calls. Each step's result is recorded as an event (the names
`evaluator.interpret` reads), from data the supervisor parsed itself: a reply of the runner can
fail the candidate, never set a result field. Talking to the workers (commands, deadlines, the
freezer, the GPU's gate) is channel.py's.
"""

from __future__ import annotations

import random
import re
import statistics
import time
from pathlib import Path
from typing import Any

from agentkernelarena.evaluate.channel import SessionOutcome, Stop, WorkerChannel
from agentkernelarena.evaluate.timing import TimingOptions, pad_ms_for, relative_standard_error
from agentkernelarena.evaluate.trace_rules import trace_verdict
from agentkernelarena.evaluate.witness import witness_problems

_OP_NAME = re.compile(r"^[A-Za-z0-9_.]{1,80}$")
# Timed rounds at least, whatever the timing options say: the witness's medians and their
# spread mean little on fewer (a single slow round on a loaded host would decide).
WITNESS_MIN_ROUNDS = 7


__all__ = ["Session", "SessionOutcome", "Stop"]


class Session(WorkerChannel):
    """The gates of one evaluation (DESIGN.md §5), over its worker channel."""
    # -- the gates -----------------------------------------------------------------------
    def _run(self) -> SessionOutcome:
        try:
            self._load()
            self._compile_gate()
        except Stop as stop:
            self.split = {}  # a compile-gate failure belongs to no split
            self.emit(stop.kind, message=stop.message, **stop.fields)
            return self.outcome
        for split in self.req["splits"]:
            self.split = split
            self.emit("split_start")
            try:
                self._correctness_gate()
                if self.req.get("sanity"):
                    self._sanity()
                if self.req["measure"]:
                    self._settle_others()
                    self._timed(self._performance)
            except Stop as stop:
                self.emit(stop.kind, message=stop.message, **stop.fields)
                if stop.kind in ("harness_error", "infra_error") or not self.runner_alive:
                    return self.outcome
            self.emit("split_done")
        self.split = {}
        self.emit("done")
        return self.outcome

    def _load(self) -> None:
        r = self.req
        visible = next((s for s in r["splits"] if s["split"] == "visible"), None)
        # Both workers load at once (the runner's reply is read by the compile gate): each
        # imports its code and, on a GPU with the device trace on, primes CUPTI, whose
        # start-up costs seconds per process.
        self._phase("compile")
        prime = r["device"] == "cuda" and r.get("device_trace", True) and not self.prepared
        self._send_runner("load", device=r["device"], root=r["candidate_root"],
                          file=r["entry"]["file"], function=r["entry"]["function"],
                          inputs_root=r["inputs_root"], inputs=r["inputs"], prime_trace=prime)
        loaded = self.ask_judge(
            "load", device=r["device"], task_root=r["task_root"],
            baseline_root=r["baseline_root"], reference=r["reference"], inputs=r["inputs"],
            baseline=r["baseline"], tolerance=r["tolerance"],
            reference_upcast=r["reference_upcast"], in_place=r["in_place"],
            vs_compile=[c["params"] for c in visible["configs"]]
            if r.get("vs_compile") and visible else None,
            seed=visible["seeds"][0] if visible else 0, prime_trace=prime)
        self.compile_only = bool(loaded.get("compile_only"))
        self.emit("start", versions=loaded.get("versions", {}))
        if loaded.get("vs_compile_error"):
            self.emit("vs_compile_error", message=str(loaded["vs_compile_error"])[:500])
        self.vs_compile = bool(r.get("vs_compile")) and not loaded.get("vs_compile_error")

    def _compile_gate(self) -> None:
        reply, _ = self._receive_runner("load")
        kind = reply.get("kind")
        # Compiled, not runnable here: the task's native baseline cannot run on this machine,
        # or (the CPU platform only, where the claim spares the candidate nothing) a native
        # candidate of a task whose PyTorch baseline runs here (torch2cuda).
        if (self.compile_only and reply.get("ok")) or (
                kind == "compile_only" and (self.compile_only or self.req["device"] == "cpu")):
            raise Stop("compile_only", "the candidate compiled; this machine cannot run "
                       "its native code (no GPU), so it was not run")
        if self.compile_only:
            raise Stop("compile_error", _text(reply))
        if not reply.get("ok"):
            raise Stop("crash" if kind == "crash" else "compile_error", _text(reply))
        self.split = self.req["splits"][0]
        first = self.split["configs"][0]
        # Its own seed: no content of this call comes back in a later one.
        seed = random.Random(f"{self.req['seed']}:compile").randrange(1, 2**31 - 1)
        meta = self._make("compile", first, seed, output=True)
        self._stage(first, seed)
        call, _ = self.ask_runner("call", output=str(self.io / "out.bin"), meta=meta, first=True)
        self.ask_judge("drop", handle="compile")
        if not call.get("ok"):
            if call.get("kind") == "crash":
                raise Stop("crash", "faulted on the device on its first call: " + _text(call))
            raise Stop("compile_error", (f"failed on its first call (config {first['name']}): "
                                         if call.get("kind") != "signature" else "")
                       + _text(call) + ("; keep the signature of the baseline's "
                                        f"{self.req['entry']['function']}"
                                        if call.get("kind") == "signature" else ""))
        self._observations(call, first["name"])
        self.emit("compiled", build=_build(reply.get("build")))
        self.split = {}

    def _make(self, handle: str, config: dict[str, Any], seed: int, output: bool = False,
              stage: bool = False) -> dict[str, Any]:
        """The judge's inputs for one call; `output`: a new output file for the config."""
        reply = self.ask_judge("make", handle=handle, config=self._key(config),
                               params=config["params"], seed=seed, stage=stage,
                               output=str(self.io / "out.bin") if output else None)
        return reply["meta"]

    def _key(self, config: dict[str, Any]) -> str:
        return f"{self.split.get('split', 'visible')}:{config['name']}"

    def _correctness_gate(self) -> None:
        self._phase("correctness")
        failures: list[Stop] = []
        for config in self.split["configs"]:
            try:
                self._check_config(config)
            except Stop as failure:
                if failure.kind != "incorrect":
                    raise
                failures.append(failure)
                self.emit("config_incorrect", config=config["name"], message=failure.message,
                          **{k: v for k, v in failure.fields.items() if k != "config"})
        if failures:
            raise Stop("incorrect", failures[0].message, failed_configs=len(failures))

    def _check_config(self, config: dict[str, Any]) -> None:
        name = config["name"]
        check_baseline = self.split["check_baseline"]
        baseline_ok = True
        worst = 0.0
        after = None if self.req["in_place"] else str(self.io / "after.bin")
        for index, seed in enumerate(self.split["seeds"]):
            handle = f"{self._key(config)}:{seed}"
            meta = self._make(handle, config, seed, output=index == 0)
            if check_baseline and baseline_ok:
                baseline_ok = bool(self.ask_judge("baseline_ok", handle=handle,
                                                  config=self._key(config))["correct"])
            self._stage(config, seed)
            # The inputs after the call are handed back on the first seed only: a kernel that
            # writes into its inputs does so on every call, and the copy costs as much as the
            # inputs are large (the runner could restore them before any copy anyway).
            inputs_after = after if index == 0 else None
            call, _ = self.ask_runner("call", output=str(self.io / "out.bin"), meta=meta,
                                      inputs_after=inputs_after)
            self._call_failure(call, name)
            self._observations(call, name)
            fields = {"baseline_correct": baseline_ok if check_baseline else None}
            if call.get("problem"):
                self.ask_judge("drop", handle=handle)
                raise Stop("incorrect", f"config {name} (seed {seed}): {_text(call, 'problem')}",
                           **fields)
            verdict = self.ask_judge("check", handle=handle, config=self._key(config),
                                     output=str(self.io / "out.bin"), full=True,
                                     inputs_after=inputs_after)
            if not verdict["match"]:
                raise Stop("incorrect", f"config {name} (seed {seed}): {verdict['message']}",
                           max_abs_err=verdict.get("max_abs_err"), **fields)
            worst = max(worst, float(verdict.get("max_abs_err") or 0.0))
        self.emit("config_correct", config=name, max_abs_err=worst,
                  baseline_correct=baseline_ok if check_baseline else None)

    def _stage(self, config: dict[str, Any], seed: int, reuse: bool = False) -> None:
        reply, _ = self.ask_runner("stage", params=config["params"], seed=seed, reuse=reuse)
        if not reply.get("ok"):
            raise Stop("crash", f"the candidate's process could not take its inputs: "
                       f"{_text(reply)}")

    def _call_failure(self, reply: dict[str, Any], config: str) -> None:
        if reply.get("ok"):
            return
        if reply.get("kind") == "crash":
            raise Stop("crash", f"faulted on the device on config {config}: {_text(reply)}")
        raise Stop("incorrect", f"{self.req['entry']['function']} raised on config {config}: "
                   f"{_text(reply)}", config=config)

    def _observations(self, reply: dict[str, Any], config: str) -> None:
        """What the runner's first-line guards saw, against the task's policy."""
        policy = self.req.get("policy", {})
        ops = reply.get("torch_ops") if isinstance(reply.get("torch_ops"), dict) else {}
        used = [(k, v) for k, v in ops.items() if _OP_NAME.match(str(k)) and isinstance(v, int)]
        if policy.get("forbid_torch_compute") and used and self.req.get("guards", True):
            listed = ", ".join(f"{k} x{v}" for k, v in used[:8])
            raise Stop("rejected", f"computed with PyTorch operators on config {config} "
                       f"({listed}); the entry may only allocate, view and reshape with PyTorch")
        if not self.req.get("guards", True):
            return
        if _int(reply, "new_threads") > 0:
            raise Stop("rejected", f"started a thread during its call on config {config}; "
                       "work must finish inside the call")
        if policy.get("require_launch") == "triton" and _int(reply, "launches", 1) == 0:
            raise Stop("rejected", f"launched no Triton kernel on config {config}; the result "
                       "must be computed by the task's kernels")
        if _int(reply, "foreign_streams") > 0:
            raise Stop("rejected", f"launched {_int(reply, 'foreign_streams')} kernel(s) on a "
                       f"stream other than the timed one on config {config}")

    def _deliver_and_check(self, record: dict[str, float], config: dict[str, Any], handle: str,
                           meta: dict[str, Any], delivered: int) -> None:
        """The timed output handed over and checked by the judge (in full on the first and
        every few delivered rounds, at 4,096 drawn positions otherwise)."""
        name, out = config["name"], str(self.io / "out.bin")
        reply, wall = self.ask_runner("deliver", output=out, meta=meta)
        if reply.get("problem"):
            raise Stop("incorrect", f"config {name}: the output of a timed call is wrong: "
                       f"{_text(reply, 'problem')}", config=name)
        record["c_deliver"] = wall
        # What handing an output over costs, measured in the judge in the same round (every
        # other delivered round on a GPU, where it takes milliseconds).
        if delivered % 2 == 0 or self.req["device"] != "cuda":
            self.ask_judge("deliver", config=self._key(config), output=str(self.io / "base.bin"),
                           fresh=delivered == 0)
            record["b_deliver"] = self.judge_wall
        self._check_timed(config, handle, delivered)

    def _check_timed(self, config: dict[str, Any], handle: str, delivered: int) -> None:
        """A timed output the runner handed over, checked by the judge (in full on the first
        and every few delivered rounds, at drawn positions otherwise)."""
        full = delivered % self.full_check_every == 0
        verdict = self.ask_judge("check", handle=handle, config=self._key(config),
                                 output=str(self.io / "out.bin"), full=full)
        if not verdict["match"]:
            raise Stop("incorrect", f"config {config['name']}: the output of a timed call is "
                       f"wrong: {verdict['message']}", config=config["name"])

    def _trace_verdict(self, rounds: list[dict[str, float]]) -> tuple[list[str], dict[str, Any]]:
        """Both workers' device traces of this configuration's rounds, judged (trace_rules)."""
        runner_path = self.io / "trace.json"
        judge_path = Path(self.req["judge_dir"]) / "trace.json"
        for path in (runner_path, judge_path):
            path.unlink(missing_ok=True)
        self.ask_runner("trace", path=str(runner_path))
        self.ask_judge("trace", path=str(judge_path))
        policy = self.req.get("policy", {})
        return trace_verdict(judge_path, runner_path, [r["b_ms"] for r in rounds],
                             [r.get("c_reported", r["c_ms"]) for r in rounds],
                             set(policy.get("own_kernels", [])),
                             bool(policy.get("forbid_torch_compute")))

    def _sanity(self) -> None:
        self._phase("sanity")
        issues = self.ask_judge("sanity", configs=self.split["configs"],
                                seeds=self.split["seeds"])["issues"]
        for config, message in issues:
            self.emit("sanity_issue", config=config, message=message)

    def _performance(self) -> None:
        self._phase("performance")
        options = TimingOptions(**self.req["timing"])
        self.full_check_every = max(1, options.full_check_every // 4)
        # Large outputs take milliseconds to hand over: on a GPU a quarter of the rounds do
        # (drawn), enough to check the outputs and to see a lazy one; on the CPU every round,
        # inside the timed command.
        self.deliver_share = 0.25
        for config in self.split["configs"]:
            result = self._time(config, options, "baseline")
            self.emit("config_timing", config=config["name"], **result)
            if self.vs_compile and self.split["split"] == "visible":
                versus = self._time(config, options, "compiled")
                self.emit("config_timing_compile", config=config["name"],
                          compile_ms=versus["baseline_ms"],
                          speedup_vs_compile=versus["speedup"])

    def _time(self, config: dict[str, Any], options: TimingOptions, which: str) -> dict[str, Any]:
        """Rounds alternating the candidate's process and the judge, each on a new content
        made for that round alone; every candidate output checked by the judge."""
        name = config["name"]
        seeds = random.Random(f"{self.req['seed']}:{self._key(config)}:{which}:timing")
        seed = seeds.randrange(1, 2**62)
        meta = self._make("warm", config, seed, output=True, stage=True)
        self._stage(config, seed)
        self.ask_judge("drop", handle="warm")
        warm = max(options.warmup, 1) + 1
        trace = self.req["device"] == "cuda" and self.req.get("device_trace", True)
        cand, _ = self.ask_runner("warm", calls=warm, trace=trace)
        self._call_failure(cand, name)
        host_ms = max(_num(cand, "host_ms"), float(self.ask_judge(
            "warm", calls=warm, which=which, trace=trace)["host_ms"]))
        pad = pad_ms_for(min(host_ms, 10.0), self.req["device"])
        rounds: list[dict[str, float]] = []
        schedule = random.Random(f"{self.req['seed']}:{self._key(config)}:{which}:deliver")
        delivered = 0
        on_gpu = self.req["device"] == "cuda"
        out, base_out = str(self.io / "out.bin"), str(self.io / "base.bin")
        started = time.perf_counter()
        while len(rounds) < max(options.max_rounds, WITNESS_MIN_ROUNDS):
            index = len(rounds)
            # One name for every round's inputs in the judge: a round's `make` replaces the
            # last one's, so nothing is left to drop.
            handle = "round"
            seed = seeds.randrange(1, 2**62)
            record: dict[str, float] = {}
            for who in ("c", "b") if index % 2 == 0 else ("b", "c"):
                # Each side stages the round's inputs inside its timed command, before its
                # clock starts: one command per side and round.
                # On the CPU both sides also hand their output over inside the command, so
                # that work left for the copy is on the supervisor's clock (_own_clock).
                if who == "c":
                    handover = {} if on_gpu else {"output": out, "meta": meta}
                    reply, wall = self.ask_runner("timed", pad_ms=pad, params=config["params"],
                                                  seed=seed, **handover)
                    if reply.get("problem"):
                        raise Stop("incorrect", f"config {name}: the output of a timed call "
                                   f"is wrong: {_text(reply, 'problem')}", config=name)
                    if reply.get("kind") == "stage":
                        raise Stop("crash", "the candidate's process could not take its "
                                   f"inputs: {_text(reply)}")
                    self._call_failure(reply, name)
                    self._observations(reply, name)
                    record.update(c_ms=_num(reply, "ms"), c_wall=wall)
                else:
                    # The runner is stopped meanwhile (between its commands, ask_runner).
                    reply = self.ask_judge("timed", pad_ms=pad, which=which, make={
                        "handle": handle, "config": self._key(config),
                        "params": config["params"], "seed": seed}, deliver=None if on_gpu
                        else {"config": self._key(config), "output": base_out,
                              "fresh": index == 0})
                    record.update(b_ms=float(reply["ms"]), b_wall=self.judge_wall,
                                  b_pad=float(reply["pad_ms"]))
            # Which rounds hand their output over is drawn after both calls, so the candidate
            # cannot know it while it computes; the first always does.
            if not on_gpu:
                self._check_timed(config, handle, delivered)
                delivered += 1
            elif index == 0 or schedule.random() < self.deliver_share:
                self._deliver_and_check(record, config, handle, meta, delivered)
                delivered += 1
            rounds.append(record)
            # The supervisor's clock needs a few rounds to tell noise from a pattern.
            if len(rounds) >= max(options.min_rounds, WITNESS_MIN_ROUNDS):
                ratios = [r["b_ms"] / r["c_ms"] if r["c_ms"] > 0 else float("inf")
                          for r in rounds]
                if relative_standard_error(ratios) <= options.target_rse:
                    break
                if time.perf_counter() - started > options.budget_s:
                    break
        if self.req["device"] != "cuda":
            _own_clock(rounds)
        problems, fields = witness_problems(rounds, pad, self.req["device"], name)
        if trace:
            traced, more = self._trace_verdict(rounds)
            problems, fields = traced + problems, {**fields, **more}
        if problems and self.req.get("guards", True):
            raise Stop("rejected", problems[0], config=name)
        base = statistics.median(r["b_ms"] for r in rounds)
        cand_ms = statistics.median(r["c_ms"] for r in rounds)
        ratios = [r["b_ms"] / r["c_ms"] if r["c_ms"] > 0 else float("inf") for r in rounds]
        return {"baseline_ms": base, "candidate_ms": cand_ms,
                "speedup": base / cand_ms if cand_ms > 0 else float("inf"),
                "rounds": len(rounds), "rse": relative_standard_error(ratios), **fields}

def _own_clock(rounds: list[dict[str, float]]) -> None:
    """On the CPU the supervisor's clock is as good as the runner's: the candidate's time is
    never less than its command's wall time less the baseline's overhead (median over the
    rounds), so neither a forged reading nor work moved outside the call (into the staging,
    say) makes it faster. The witness still judges what the runner said (`c_reported`)."""
    overhead = statistics.median(r["b_wall"] - r["b_ms"] for r in rounds)
    for record in rounds:
        record["c_reported"] = record["c_ms"]
        record["c_ms"] = max(record["c_ms"], record["c_wall"] - overhead)


def _text(reply: dict[str, Any], key: str = "error") -> str:
    return str(reply.get(key, "")).strip()[:8000] or "(no message)"


def _num(reply: dict[str, Any], key: str) -> float:
    value = reply.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value \
            or value < 0 or value == float("inf"):
        raise Stop("crash", f"the candidate's process sent an unusable '{key}' ({value!r})")
    return float(value)


def _int(reply: dict[str, Any], key: str, default: int = 0) -> int:
    value = reply.get(key, default)
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _build(build: Any) -> dict[str, Any] | None:
    """The native build record the runner reported (shown to the user; never scored)."""
    if not isinstance(build, dict):
        return None
    return {k: build.get(k) for k in ("origin", "binding", "seconds", "compiler", "arch")
            if isinstance(build.get(k), (str, int, float, bool, type(None)))}
