"""The evaluation worker: runs candidate code in its own process, through every gate.

Started by `supervisor.run_worker` as `python -m agentkernelarena.evaluate.worker REQUEST.json`.
It reports through the authenticated result channel (channel.py), one line per finished step,
so that the supervisor knows how far it got when the candidate hangs, crashes or kills the
process.

Everything the harness relies on (torch functions, the clock, the comparison) is bound when this
module is imported, before any candidate code runs.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import torch

from agentkernelarena.evaluate.channel import Events
from agentkernelarena.evaluate.compare import (
    Mismatch,
    OutputMeta,
    check_structure,
    compare_sampled,
    compare_values,
    max_errors,
)
from agentkernelarena.evaluate.guards import (
    LaunchCounter,
    OpAudit,
    ProcessWatch,
    TamperWatch,
    module_names,
)
from agentkernelarena.evaluate.loading import (
    describe_exception,
    get_function,
    is_device_fault,
    load_module,
)
from agentkernelarena.evaluate.timing import TimingOptions, time_interleaved
from agentkernelarena.evaluate.worker_support import (
    NATIVE_OUTCOMES,
    CandidateFailure,
    TaskBug,
    aliasing_problem,
    check_same_layout,
    clone_args,
    compile_baseline,
    device_sync,
    input_layout,
    native_load_record,
    thread_count,
    upcast_args,
    worker_versions,
)


class Evaluation:
    """One task's gates: compile once, then correctness (and timing) per split of configs."""

    def __init__(self, request: dict[str, Any], events: Events) -> None:
        self.req = request
        self.events = events
        self.device: str = request["device"]
        self.tolerances = {k: (v["atol"], v["rtol"]) for k, v in request["tolerance"].items()}
        self.candidate_root = Path(request["candidate_root"])
        self.baseline_root = Path(request["baseline_root"])
        self.task_root = Path(request["task_root"])
        entry = request["entry"]
        self.entry_file, self.entry_fn = entry["file"], entry["function"]
        self.split: dict[str, Any] = request["splits"][0]
        self.policy: dict[str, Any] = request.get("policy", {})
        # Off only to measure what the guards cost (benchmarks/); never for scoring.
        self.guards: bool = request.get("guards", True)
        self.launches = LaunchCounter(self.device)
        if self.guards:
            self.launches.install()

    # -- helpers -----------------------------------------------------------------------------
    def make_inputs(self, params: dict[str, Any], seed: int) -> tuple[Any, ...]:
        args = self.inputs_fn(params, seed, self.device)
        return tuple(args) if isinstance(args, (tuple, list)) else (args,)

    def reference(self, args: tuple[Any, ...]) -> Any:
        with torch.no_grad():
            ref_args = upcast_args(args) if self.req["reference_upcast"] else args
            out = self.reference_fn(*ref_args)
        return tuple(out) if isinstance(out, list) else out

    def check_output(self, out: Any, meta: OutputMeta, ref: Any) -> Mismatch | None:
        return check_structure(out, meta) or compare_values(out, ref, self.tolerances)

    def call(self, fn: Any, args: tuple[Any, ...], config: str, what: str,
             sync: bool = True) -> Any:
        """Call the candidate under the guards; its exceptions become verdicts.

        Every call, timed or not, runs under the operator audit and the launch counter, so the
        candidate cannot behave one way when checked and another when timed. (On a GPU the
        audit's host cost hides behind the cache flush queued before the timed region.) Timed
        calls pass sync=False: a synchronize inside the timed region would count host latency
        against the candidate.
        """
        try:
            return self._guarded(fn, args, config, sync)
        except CandidateFailure:
            raise
        except Exception as exc:  # the candidate's failure, reported as a verdict
            if is_device_fault(exc):
                raise CandidateFailure("crash", f"{what} faulted on the device on config "
                                       f"{config}: {describe_exception(exc, self.candidate_root)}",
                                       config=config) from exc
            raise CandidateFailure("incorrect", f"{what} raised on config {config}: "
                                   f"{describe_exception(exc, self.candidate_root)}",
                                   config=config) from exc

    def _guarded(self, fn: Any, args: tuple[Any, ...], config: str, sync: bool,
                 enforce: bool = True) -> Any:
        """One call under the guards; their findings raise `CandidateFailure`, the candidate's
        own exceptions propagate for the caller to classify. The baseline's timed calls take
        the same path with enforce=False, so both pay the same host-side cost."""
        if not self.guards:
            out = fn(*args)
            if sync:
                device_sync(self.device)
            return out
        self.launches.reset()
        threads_before = thread_count()
        with OpAudit() as ops:
            out = fn(*args)
        if not enforce:
            return out
        if thread_count() > threads_before:
            raise CandidateFailure("rejected", f"started a thread during its call on config "
                                   f"{config}; work must finish inside the call", config=config)
        self._check_ops(ops, config)
        if sync:
            device_sync(self.device)
        self._check_launches(config)
        return out

    def _check_ops(self, ops: OpAudit, config: str) -> None:
        if self.policy.get("forbid_torch_compute") and ops.disallowed:
            used = ", ".join(f"{name} x{n}" for name, n in ops.disallowed.most_common(8))
            raise CandidateFailure(
                "rejected", f"computed with PyTorch operators on config {config} ({used}); the "
                f"entry may only allocate, view and reshape with PyTorch", config=config)

    def _check_launches(self, config: str) -> None:
        language = self.policy.get("require_launch")
        if language == "triton" and self.launches.installed and self.launches.count == 0:
            raise CandidateFailure("rejected", f"launched no Triton kernel on config {config}; "
                                   "the result must be computed by the task's kernels",
                                   config=config)
        if self.launches.foreign_streams:
            raise CandidateFailure("rejected", f"launched {self.launches.foreign_streams} "
                                   f"kernel(s) on a stream other than the timed one on config "
                                   f"{config}", config=config)

    def start_watching(self) -> None:
        """Snapshot what the harness relies on, after loading it, before the candidate.

        The baseline runs once first: its kernels are compiled from the pristine files before
        any candidate code could touch them, and lazy imports of the launch path are done.
        """
        if self.baseline_fn is not None:
            first = self.split["configs"][0]
            args = self.make_inputs(first["params"], self.split["seeds"][0])
            with OpAudit():
                self.baseline_fn(*args)
            device_sync(self.device)
        self.tamper = TamperWatch(module_names("agentkernelarena", "aka_reference",
                                               "aka_baseline"),
                                  [self.task_root, self.baseline_root])
        self.processes = ProcessWatch()

    def check_tampering(self, where: str) -> None:
        if not self.guards:
            return
        changed = self.tamper.changes()
        if changed:
            raise CandidateFailure("rejected", f"modified what the harness relies on ({where}): "
                                   + ", ".join(changed[:8]))
        leftovers = self.processes.changes()
        if leftovers:
            raise CandidateFailure("rejected", f"left work running outside the call ({where}): "
                                   + "; ".join(leftovers[:4]))

    # -- gates -------------------------------------------------------------------------------
    def load(self) -> None:
        reference = load_module(self.task_root, self.req["reference"]["file"], "aka_reference")
        self.reference_fn = get_function(reference, self.req["reference"]["function"],
                                          self.req["reference"]["file"])
        inputs = reference if self.req["inputs"]["file"] == self.req["reference"]["file"] else \
            load_module(self.task_root, self.req["inputs"]["file"], "aka_reference")
        self.inputs_fn = get_function(inputs, self.req["inputs"]["function"],
                                       self.req["inputs"]["file"])
        self.baseline_fn: Any = None
        self.compiled_baseline: Any = None
        base = self.req.get("baseline") or self.req["entry"]
        try:
            baseline = load_module(self.baseline_root, base["file"], "aka_baseline")
        except Exception as exc:
            # Native sources on a machine without a GPU compile but cannot run: the evaluation
            # becomes a compile-only gate for the candidate.
            if type(exc).__name__ != "NativeCompiledNotRun":
                raise
            return
        self.baseline_fn = get_function(baseline, base["function"], base["file"])
        if self.req.get("vs_compile"):
            visible = next((s for s in self.req["splits"] if s["split"] == "visible"), None)
            self.compiled_baseline = compile_baseline(self.baseline_fn, self.make_inputs,
                                                      visible, self.device, self.events)

    def compile_gate(self) -> None:
        """Import the candidate and run it once: imports, native builds and JIT all happen here."""
        self.events.emit("phase", phase="compile")
        before = native_load_record()
        try:
            module = load_module(self.candidate_root, self.entry_file, "aka_candidate")
            self.candidate_fn = get_function(module, self.entry_fn, self.entry_file)
        except Exception as exc:
            kind = NATIVE_OUTCOMES.get(type(exc).__name__, "compile_error")
            message = str(exc) if kind != "compile_error" else \
                describe_exception(exc, self.candidate_root)
            raise CandidateFailure(kind, message) from exc
        if self.baseline_fn is None:
            raise CandidateFailure("compile_only", "the candidate imported, but the baseline "
                                   "cannot run on this machine")
        first = self.split["configs"][0]
        args = self.make_inputs(first["params"], self.split["seeds"][0])
        import inspect

        try:
            inspect.signature(self.candidate_fn).bind(*args)
        except (TypeError, ValueError) as exc:
            raise CandidateFailure(
                "compile_error",
                f"{self.entry_file}:{self.entry_fn} cannot take the task's {len(args)} inputs: "
                f"{exc}; keep the signature of the baseline's {self.entry_fn}",
            ) from exc
        try:
            self._guarded(self.candidate_fn, args, first["name"], sync=True)
        except CandidateFailure:
            raise
        except Exception as exc:
            if type(exc).__name__ in NATIVE_OUTCOMES:
                raise CandidateFailure(NATIVE_OUTCOMES[type(exc).__name__], str(exc)) from exc
            if is_device_fault(exc):
                raise CandidateFailure("crash", "faulted on the device on its first call: "
                                       + describe_exception(exc, self.candidate_root)) from exc
            raise CandidateFailure("compile_error", "failed on its first call (config "
                                   f"{first['name']}): "
                                   + describe_exception(exc, self.candidate_root)) from exc
        after = native_load_record()
        build = None
        if after is not None and after is not before:
            build = {"origin": after.origin, "binding": after.binding, "seconds":
                     round(after.seconds, 2), "compiler": after.compiler, "arch": after.arch}
        self.events.emit("compiled", build=build)
        self.check_tampering("on import or first call")

    def correctness_gate(self) -> None:
        """Every configuration, every seed; a failing configuration does not stop the others,
        so the report (and the agent's feedback) names all of them."""
        self.events.emit("phase", phase="correctness")
        self.metas: dict[str, OutputMeta] = {}
        failures: list[CandidateFailure] = []
        for config in self.split["configs"]:
            try:
                self._check_config(config["name"], config["params"])
            except CandidateFailure as failure:
                if failure.kind == "crash":
                    raise
                failures.append(failure)
                fields = {k: v for k, v in failure.fields.items() if k != "config"}
                self.events.emit("config_incorrect", config=config["name"],
                                 message=failure.message, **fields)
        if failures:
            first = failures[0]
            raise CandidateFailure("incorrect", first.message, failed_configs=len(failures))

    def _check_config(self, name: str, params: dict[str, Any]) -> None:
        check_baseline = self.split["check_baseline"]
        worst_abs = 0.0
        baseline_ok = True
        first_layout = None
        for seed in self.split["seeds"]:
            args = self.make_inputs(params, seed)
            layout = input_layout(args)
            first_layout = first_layout or (seed, layout)
            check_same_layout(first_layout, seed, layout, name)
            if name not in self.metas:
                with torch.no_grad():
                    self.metas[name] = OutputMeta.of(self.reference_fn(*clone_args(args)))
            ref = self.reference(args)
            if check_baseline and baseline_ok:
                try:
                    base_out = self.baseline_fn(*clone_args(args))
                    device_sync(self.device)
                    baseline_ok = self.check_output(base_out, self.metas[name], ref) is None
                    del base_out
                except Exception:
                    baseline_ok = False
            before = None if self.req["in_place"] else clone_args(args)
            out = self.call(self.candidate_fn, args, name, self.entry_fn)
            problem = self.check_output(out, self.metas[name], ref) or aliasing_problem(
                out, args, self.req["in_place"])
            if problem is None and before is not None:
                for index, (a, b) in enumerate(zip(args, before, strict=True)):
                    if isinstance(a, torch.Tensor) and not torch.equal(a, b):
                        problem = Mismatch(f"modified its input {index} (the task does not "
                                           "allow in-place changes)")
            if problem is not None:
                raise CandidateFailure(
                    "incorrect", f"config {name} (seed {seed}): {problem.message}",
                    max_abs_err=problem.max_abs_err,
                    baseline_correct=baseline_ok if check_baseline else None,
                )
            worst_abs = max(worst_abs, max_errors(out, ref))
            del out, ref
        self.check_tampering(f"config {name}")
        self.events.emit("config_correct", config=name, max_abs_err=worst_abs,
                         baseline_correct=baseline_ok if check_baseline else None)

    def sanity(self) -> None:
        from agentkernelarena.evaluate.sanity import config_issues

        self.events.emit("phase", phase="sanity")
        for config in self.split["configs"]:
            for issue in config_issues(self, config["name"], config["params"]):
                self.events.emit("sanity_issue", config=config["name"], message=issue)

    def performance(self) -> None:
        self.events.emit("phase", phase="performance")
        options = TimingOptions(**self.req["timing"])
        for config in self.split["configs"]:
            name, params = config["name"], config["params"]
            seeds = self.split["timing_seeds"]
            pool = [self.make_inputs(params, s) for s in seeds]
            first = (seeds[0], input_layout(pool[0]))
            for seed, inputs in zip(seeds, pool, strict=True):
                check_same_layout(first, seed, input_layout(inputs), name)
            refs = [self.reference(p) for p in pool]
            work = clone_args(pool[0])
            meta = self.metas[name]

            def refill(k: int, work: tuple[Any, ...] = work, pool: list[Any] = pool) -> None:
                for dst, src in zip(work, pool[k], strict=True):
                    if isinstance(dst, torch.Tensor):
                        dst.copy_(src)

            def verify(out: Any, k: int, full: bool, refs: list[Any] = refs, name: str = name,
                       meta: OutputMeta = meta) -> None:
                problem = check_structure(out, meta) or (
                    compare_values(out, refs[k], self.tolerances) if full
                    else compare_sampled(out, refs[k], self.tolerances))
                if problem is not None:
                    raise CandidateFailure("incorrect", f"config {name}: the output of a timed "
                                           f"call is wrong: {problem.message}", config=name)

            def candidate(*args: Any, name: str = name) -> Any:
                return self.call(self.candidate_fn, args, name, self.entry_fn, sync=False)

            def baseline(*args: Any, name: str = name) -> Any:
                return self._guarded(self.baseline_fn, args, name, sync=False, enforce=False)

            result = time_interleaved(baseline, candidate, work, refill, len(pool),
                                      verify, self.device, options)
            self.check_tampering(f"timing config {name}")
            self.events.emit("config_timing", config=name, baseline_ms=result.baseline_ms,
                             candidate_ms=result.candidate_ms, speedup=result.speedup,
                             rounds=result.rounds, rse=result.rse)
            if self.compiled_baseline is not None and self.split["split"] == "visible":
                # The same interleaved timing against torch.compile of the baseline (trusted
                # harness code, called directly); informational, never part of the score.
                versus = time_interleaved(self.compiled_baseline, candidate, work, refill,
                                          len(pool), verify, self.device, options)
                self.check_tampering(f"timing config {name} against torch.compile")
                self.events.emit("config_timing_compile", config=name,
                                 compile_ms=versus.baseline_ms,
                                 speedup_vs_compile=versus.speedup)
            del pool, refs, work


def _report(events: Events, failure: CandidateFailure) -> None:
    events.emit(failure.kind, message=failure.message, **failure.fields)
    if failure.kind == "crash":
        os._exit(4)  # the device context is gone; do not run atexit handlers on it


def main(argv: list[str]) -> int:
    request = json.loads(Path(argv[1]).read_text())
    key = bytes.fromhex(sys.stdin.readline().strip())
    events = Events(request["events_path"], key)
    del key
    events.emit("start", pid=os.getpid(), versions=worker_versions(request["device"]))
    evaluation = Evaluation(request, events)
    try:
        evaluation.load()
    except Exception as exc:  # the pristine task is broken: not the candidate's fault
        events.emit("harness_error", message=describe_exception(exc, Path(request["task_root"])))
        return 3
    evaluation.start_watching()
    try:
        evaluation.compile_gate()
    except CandidateFailure as failure:
        _report(events, failure)
        return 0
    for split in request["splits"]:
        evaluation.split = split
        events.split = split["split"]
        events.emit("split_start")
        try:
            evaluation.correctness_gate()
            if request.get("sanity"):
                evaluation.sanity()
            if request["measure"]:
                evaluation.performance()
        except CandidateFailure as failure:
            _report(events, failure)
        except TaskBug as bug:
            events.emit("harness_error", message=str(bug))
            return 3
        events.emit("split_done")
    events.split = None
    events.emit("done")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
