"""The judge: a trusted process that never loads candidate code.

It holds what the candidate must never reach: the reference, the inputs function, the baseline
(and its torch.compile), the tolerances and every configuration's parameters. It makes each
call's inputs and writes them to a file for the candidate's runner, computes the expected
output only after the candidate's call has returned, compares the output file the runner
filled (every element, or positions it draws itself), and times the baseline on the same
contents in rounds the supervisor alternates with the candidate's. Nothing the candidate does to
its own process reaches this one: not its patches, its hooks, its threads, nor its global state.

Started by the supervisor as `python -m agentkernelarena.evaluate.judge`; commands in protocol.py.
"""

from __future__ import annotations

import secrets
import sys
import time
from pathlib import Path
from typing import Any

import torch

from agentkernelarena.evaluate import tensorfile
from agentkernelarena.evaluate.compare import (
    OutputMeta,
    check_structure,
    compare_values,
    identical,
    max_errors,
)
from agentkernelarena.evaluate.device_trace import DeviceTrace
from agentkernelarena.evaluate.guards import LaunchCounter, OpAudit
from agentkernelarena.evaluate.loading import describe_exception, get_function, load_module
from agentkernelarena.evaluate.protocol import serve
from agentkernelarena.evaluate.timing import Clock
from agentkernelarena.evaluate.worker_support import (
    NATIVE_OUTCOMES,
    TaskBug,
    check_same_layout,
    clone_args,
    compile_baseline,
    device_sync,
    input_layout,
    prepare_worker,
    upcast_args,
    worker_versions,
)


def meta_dict(meta: OutputMeta, in_place: bool) -> dict[str, Any]:
    return {"structure": meta.structure, "shapes": [list(s) for s in meta.shapes],
            "dtypes": [str(d).removeprefix("torch.") for d in meta.dtypes],
            "devices": list(meta.devices), "in_place": in_place}


_perf_counter = time.perf_counter
# Positions of each output compared on a timed round that is not checked in full.
SAMPLES = 4096


class Judge:
    def __init__(self) -> None:
        self.held: dict[str, tuple[Any, ...]] = {}
        self.metas: dict[str, OutputMeta] = {}
        self.layouts: dict[str, tuple[int, Any]] = {}
        self.work: tuple[Any, ...] = ()
        self.clock: Clock | None = None
        self.compiled: Any = None
        self.pending: Any = None
        self.device_trace: DeviceTrace | None = None

    # -- commands ------------------------------------------------------------------------
    def prepare(self, device: str, prime_trace: bool = False) -> dict[str, Any]:
        return prepare_worker(device, prime_trace)

    def load(self, device: str, task_root: str, baseline_root: str, reference: dict[str, str],
             inputs: dict[str, str], baseline: dict[str, str],
             tolerance: dict[str, dict[str, float]], reference_upcast: bool, in_place: bool,
             vs_compile: list[dict[str, Any]] | None = None, seed: int = 0,
             prime_trace: bool = False) -> dict[str, Any]:
        self.device, self.in_place, self.upcast = device, in_place, reference_upcast
        if prime_trace:
            DeviceTrace.prime(device)
        self.tolerances = {k: (v["atol"], v["rtol"]) for k, v in tolerance.items()}
        self.cpu_rng = torch.Generator()
        self.cpu_rng.manual_seed(secrets.randbits(63))
        try:
            ref = load_module(Path(task_root), reference["file"], "aka_reference")
            self.reference_fn = get_function(ref, reference["function"], reference["file"])
            module = ref if inputs["file"] == reference["file"] else \
                load_module(Path(task_root), inputs["file"], "aka_reference")
            self.inputs_fn = get_function(module, inputs["function"], inputs["file"])
        except Exception as exc:
            return {"ok": False, "kind": "harness_error",
                    "error": describe_exception(exc, Path(task_root))}
        self.launches = LaunchCounter(device)
        self.launches.install()
        self.baseline_fn: Any = None
        try:
            base = load_module(Path(baseline_root), baseline["file"], "aka_baseline")
            self.baseline_fn = get_function(base, baseline["function"], baseline["file"])
        except Exception as exc:
            kind = NATIVE_OUTCOMES.get(type(exc).__name__)
            if kind == "compile_only":
                return {"ok": True, "compile_only": True, "versions": worker_versions(device)}
            return {"ok": False, "kind": kind or "harness_error",
                    "error": describe_exception(exc, Path(baseline_root))}
        reply: dict[str, Any] = {"ok": True, "compile_only": False,
                                 "versions": worker_versions(device)}
        if vs_compile:
            self.compiled, error = compile_baseline(self.baseline_fn, self.make_inputs,
                                                    vs_compile, seed, device)
            reply["vs_compile_error"] = error
        return reply

    def make(self, handle: str, config: str, params: dict[str, Any], seed: int,
             output: str | None = None, stage: bool = False) -> dict[str, Any]:
        """Inputs for one call, kept here under `handle` (the runner makes the same ones from
        the same parameters and seed); `output` is created laid out as the reference's output,
        for the runner to fill; `stage` also refills the baseline's work buffers."""
        args = self.make_inputs(params, seed)
        layout = input_layout(args)
        first = self.layouts.setdefault(config, (seed, layout))
        try:
            check_same_layout(first, seed, layout, config)
        except TaskBug as bug:
            return {"ok": False, "kind": "harness_error", "error": str(bug)}
        if config not in self.metas:
            with torch.no_grad():
                self.metas[config] = OutputMeta.of(self.reference_fn(*clone_args(args)))
        self.held[handle] = args
        if output is not None:
            self._create_output(Path(output), config)
        if stage:
            self.stage(handle)
        return {"ok": True, "meta": meta_dict(self.metas[config], self.in_place)}

    def check(self, handle: str, config: str, output: str, full: bool,
              inputs_after: str | None = None, keep: bool = False) -> dict[str, Any]:
        """The runner's output for `handle` against the reference, computed now."""
        args = self.held[handle] if keep else self.held.pop(handle)
        ref = self.reference(args)
        try:
            if not full:
                return self._check_sampled(Path(output), ref)
            out = tensorfile.read(Path(output), self.device)
        except (tensorfile.TensorFileError, OSError, ValueError) as exc:
            return {"ok": True, "match": False, "message": f"its output could not be read: {exc}"}
        problem = check_structure(out, self.metas[config])
        if problem is None:
            problem = compare_values(out, ref, self.tolerances)
        if problem is None and inputs_after is not None and not self.in_place:
            after = tensorfile.read(Path(inputs_after), self.device)
            after = after if isinstance(after, tuple) else (after,)
            for index, (a, b) in enumerate(zip(after, args, strict=True)):
                if isinstance(b, torch.Tensor) and not identical(a, b):
                    return {"ok": True, "match": False, "message": f"modified its input {index} "
                            "(the task does not allow in-place changes)"}
        if problem is not None:
            return {"ok": True, "match": False, "message": problem.message,
                    "max_abs_err": problem.max_abs_err, "bad_fraction": problem.bad_fraction}
        return {"ok": True, "match": True, "max_abs_err": max_errors(out, ref) if full else None}

    def _check_sampled(self, path: Path, ref: Any) -> dict[str, Any]:
        """4,096 positions of each output, drawn here, read straight from the file (the rest
        of a large output never leaves the page cache)."""
        header, start = tensorfile.read_header(path, 1 << 40)
        refs = [ref] if isinstance(ref, torch.Tensor) else list(ref)
        slots = [s for s in tensorfile.slots(header, start) if isinstance(s, tensorfile.TensorSlot)]
        if len(slots) != len(refs):
            return {"ok": True, "match": False, "message": "its output has the wrong structure"}
        got, expected = [], []
        for slot, r in zip(slots, refs, strict=True):
            if slot.shape != tuple(r.shape) or tensorfile.DTYPES[slot.dtype] != r.dtype and \
                    not self.upcast:
                return {"ok": True, "match": False, "message": "its output has the wrong layout"}
            flat = tensorfile.map_slot(path, slot, lazy=True).reshape(-1)
            count = min(SAMPLES, r.numel())
            index = torch.randint(0, max(r.numel(), 1), (count,), generator=self.cpu_rng)
            got.append(flat[index].to(self.device))
            expected.append(r.reshape(-1)[index.to(r.device)])
        problem = compare_values(tuple(got), tuple(expected), self.tolerances)
        if problem is not None:
            return {"ok": True, "match": False, "message": f"at sampled positions: "
                    f"{problem.message}", "max_abs_err": problem.max_abs_err}
        return {"ok": True, "match": True, "max_abs_err": None}

    def baseline_ok(self, handle: str, config: str) -> dict[str, Any]:
        """Whether the baseline is right on these inputs (the held-out quadrant)."""
        args = self.held[handle]
        try:
            out = self.baseline_fn(*clone_args(args))
            device_sync(self.device)
            meta = self.metas[config]
            good = (check_structure(out, meta) or
                    compare_values(out, self.reference(args), self.tolerances)) is None
        except Exception:
            good = False
        return {"ok": True, "correct": good}

    def stage(self, handle: str) -> dict[str, Any]:
        """The baseline's work buffers refilled with `handle`'s contents (same as the
        candidate's for that round), outside any timing."""
        args = self.held[handle]
        if len(self.work) == len(args) and all(
                isinstance(w, torch.Tensor) and w.shape == a.shape and w.dtype == a.dtype
                and w.stride() == a.stride() for w, a in zip(self.work, args, strict=True)
                if isinstance(a, torch.Tensor)):
            for dst, src in zip(self.work, args, strict=True):
                if isinstance(dst, torch.Tensor):
                    dst.copy_(src)
        else:
            self.work = clone_args(args)
        device_sync(self.device)
        return {"ok": True}

    def warm(self, calls: int, which: str = "baseline", trace: bool = False) -> dict[str, Any]:
        fn = self._timed_fn(which)
        host_ms = 0.0
        for index in range(calls):
            device_sync(self.device)
            began = _perf_counter()
            fn(*self.work)
            if index:
                host_ms = max(host_ms, (_perf_counter() - began) * 1e3)
            device_sync(self.device)
        if trace:
            # Traced like the candidate's rounds, so that both pay what tracing costs.
            self.device_trace = DeviceTrace(self.device)
            self.device_trace.start()
        return {"ok": True, "host_ms": host_ms}

    def trace(self, path: str) -> dict[str, Any]:
        if self.device_trace is None:
            return {"ok": True, "traced": False, "error": "not started"}
        device_trace, self.device_trace = self.device_trace, None
        return device_trace.stop(Path(path))

    def timed(self, pad_ms: float, which: str = "baseline",
              make: dict[str, Any] | None = None,
              deliver: dict[str, Any] | None = None) -> dict[str, Any]:
        """One timed baseline call, shaped like the runner's (audited, ended by a device sync),
        so that both sides' commands cost the same beside the call. With `make` (the arguments
        of `make`), the round's inputs are made and staged first, outside the timing."""
        if make is not None:
            made = self.make(**make, stage=True)
            if not made.get("ok"):
                return made
        if self.clock is None:
            self.clock = Clock(self.device)
        self.clock.set_pad_ms(pad_ms)
        fn = self._timed_fn(which)

        def audited() -> Any:
            self.launches.reset()
            with OpAudit():
                return fn(*self.work)

        out, read = self.clock.time_call(audited)
        self.clock.synchronize()
        ms, pad_took = read()
        self.pending = out
        if deliver is not None:
            self.deliver(**deliver)
        return {"ok": True, "ms": ms, "pad_ms": pad_took}

    def deliver(self, config: str, output: str, fresh: bool = False) -> dict[str, Any]:
        """The last timed output into a file laid out like the candidate's (made anew when
        `fresh`): what handing an output over costs here, for the supervisor to hold the
        runner's against."""
        if fresh:
            self._create_output(Path(output), config)
        path = Path(output)
        header, start = tensorfile.read_header(path, 1 << 40)
        out = self.pending
        outs = [out] if isinstance(out, torch.Tensor) else list(out)
        for tensor, slot in zip(outs, tensorfile.slots(header, start), strict=True):
            tensorfile.map_slot(path, slot, writable=True).copy_(tensor.reshape(slot.shape))
        device_sync(self.device)
        return {"ok": True}

    def sanity(self, configs: list[dict[str, Any]], seeds: list[int]) -> dict[str, Any]:
        from agentkernelarena.evaluate.sanity import config_issues

        self.split = {"seeds": seeds}
        issues = [[c["name"], issue] for c in configs
                  for issue in config_issues(self, c["name"], c["params"])]
        return {"ok": True, "issues": issues}

    def drop(self, handle: str) -> dict[str, Any]:
        self.held.pop(handle, None)
        return {"ok": True}

    def exit(self) -> dict[str, Any]:
        return {"ok": True}

    # -- helpers -------------------------------------------------------------------------
    def make_inputs(self, params: dict[str, Any], seed: int) -> tuple[Any, ...]:
        args = self.inputs_fn(params, seed, self.device)
        return tuple(args) if isinstance(args, (tuple, list)) else (args,)

    def reference(self, args: tuple[Any, ...]) -> Any:
        with torch.no_grad():
            out = self.reference_fn(*(upcast_args(args) if self.upcast else args))
        return tuple(out) if isinstance(out, list) else out

    def _timed_fn(self, which: str) -> Any:
        return self.compiled if which == "compiled" else self.baseline_fn

    def _create_output(self, path: Path, config: str) -> None:
        meta = self.metas[config]
        blanks = [torch.empty(s, dtype=d) for s, d in zip(meta.shapes, meta.dtypes, strict=True)]
        value = blanks[0] if meta.structure == "tensor" else tuple(blanks)
        tensorfile.create_for(path, tensorfile.layout(value))


def main() -> int:
    judge = Judge()
    names = ("prepare", "load", "make", "check", "baseline_ok", "stage", "warm", "timed", "deliver",
             "trace", "sanity", "drop", "exit")
    return serve({name: getattr(judge, name) for name in names})


if __name__ == "__main__":
    sys.exit(main())
