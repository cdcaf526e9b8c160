"""The candidate's process: import the candidate, call it on the inputs of each call, time its
own calls on the device, and hand back outputs and raw readings. Nothing else.

Started by the supervisor (session.py) as `python -m agentkernelarena.evaluate.runner`, inside
the evaluation sandbox. It never holds a reference, an expected value, a baseline output, a
tolerance or a verdict, and learns a configuration's parameters and a call's seed only with the
call that uses them (it makes the inputs with the task's own inputs function); outputs leave as
files the judge reads. Whatever the candidate does to this process (and
it can do anything: it has read this file) can only change what this process reports, and
every report is checked by processes the candidate cannot reach: the judge compares the outputs,
the supervisor holds each timing against its own clock.

The guards here (operator audit, launch counter, thread count, aliasing) are first lines that
give an honest candidate a clear reason when it breaks a rule; the supervisor treats what they
report as the candidate's own admission, never as proof of innocence.
"""

from __future__ import annotations

import inspect
import sys
import time
from pathlib import Path
from typing import Any

import torch

from agentkernelarena.evaluate import tensorfile
from agentkernelarena.evaluate.compare import OutputMeta, check_structure
from agentkernelarena.evaluate.device_trace import DeviceTrace
from agentkernelarena.evaluate.guards import LaunchCounter, OpAudit
from agentkernelarena.evaluate.loading import (
    describe_exception,
    get_function,
    is_device_fault,
    load_module,
)
from agentkernelarena.evaluate.protocol import serve
from agentkernelarena.evaluate.timing import Clock
from agentkernelarena.evaluate.worker_support import (
    NATIVE_OUTCOMES,
    aliasing_problem,
    device_sync,
    native_load_record,
    prepare_worker,
    thread_count,
    worker_versions,
)

_perf_counter = time.perf_counter


class Runner:
    def __init__(self) -> None:
        self.fn: Any = None
        self.args: tuple[Any, ...] = ()
        self.device = "cpu"
        self.root = Path(".")
        self.clock: Clock | None = None
        self.launches: LaunchCounter | None = None
        self.pending: Any = None
        self.device_trace: DeviceTrace | None = None

    # -- commands ------------------------------------------------------------------------
    def prepare(self, device: str, prime_trace: bool = False) -> dict[str, Any]:
        return prepare_worker(device, prime_trace)

    def load(self, device: str, root: str, file: str, function: str,
             inputs_root: str, inputs: dict[str, str],
             prime_trace: bool = False) -> dict[str, Any]:
        self.device, self.root = device, Path(root)
        if prime_trace:  # before the candidate's code is imported, like the judge's
            DeviceTrace.prime(device)
        # The task's inputs function, from a copy of the task without task.yaml: the agent
        # sees the same file, and inputs a tampered generator makes only fail the candidate
        # (the judge checks against the inputs it made itself).
        module = load_module(Path(inputs_root), inputs["file"], "aka_inputs")
        self.inputs_fn = get_function(module, inputs["function"], inputs["file"])
        self.launches = LaunchCounter(device)
        self.launches.install()
        before = native_load_record()
        try:
            module = load_module(self.root, file, "aka_candidate")
            self.fn = get_function(module, function, file)
        except Exception as exc:
            kind = NATIVE_OUTCOMES.get(type(exc).__name__, "compile_error")
            message = str(exc) if kind != "compile_error" else \
                describe_exception(exc, self.root)
            return {"ok": False, "kind": kind, "error": message}
        self.entry = f"{file}:{function}"
        return {"ok": True, "versions": worker_versions(device), "build": _build(before)}

    def stage(self, params: dict[str, Any], seed: int, reuse: bool = False) -> dict[str, Any]:
        """Make the next call's inputs (the parameters and seed arrive with the call, never
        earlier); `reuse` refills the previous buffers in place (timed rounds)."""
        fresh = self.inputs_fn(params, seed, self.device)
        fresh = tuple(fresh) if isinstance(fresh, (tuple, list)) else (fresh,)
        if reuse and len(self.args) == len(fresh) and all(
                _same_layout(a, b) for a, b in zip(self.args, fresh, strict=True)):
            for dst, src in zip(self.args, fresh, strict=True):
                if isinstance(dst, torch.Tensor):
                    dst.copy_(src)
        else:
            self.args = fresh
        device_sync(self.device)
        return {"ok": True}

    def call(self, output: str, meta: dict[str, Any], inputs_after: str | None = None,
             first: bool = False) -> dict[str, Any]:
        """One untimed call (compile and correctness gates)."""
        if first:
            try:
                inspect.signature(self.fn).bind(*self.args)
            except (TypeError, ValueError) as exc:
                return {"ok": False, "kind": "signature",
                        "error": f"{self.entry} cannot take the task's {len(self.args)} "
                                 f"inputs: {exc}"}
        try:
            out, seen = self._guarded(lambda: self.fn(*self.args))
            device_sync(self.device)
        except Exception as exc:
            return self._failure(exc)
        reply = {"ok": True, **seen, **self._deliver(out, output, meta)}
        if inputs_after is not None:
            tensorfile.write(Path(inputs_after), self.args)
        return reply

    def warm(self, calls: int, trace: bool = False) -> dict[str, Any]:
        """Warm-up calls; the host's time to enqueue one (the pad is made from it). With
        `trace`, the device trace runs from here to the `trace` command."""
        host_ms = 0.0
        try:
            for index in range(calls):
                device_sync(self.device)
                began = _perf_counter()
                self.fn(*self.args)
                if index:
                    host_ms = max(host_ms, (_perf_counter() - began) * 1e3)
                device_sync(self.device)
        except Exception as exc:
            return self._failure(exc)
        if trace:
            self.device_trace = DeviceTrace(self.device)
            self.device_trace.start()
        return {"ok": True, "host_ms": host_ms}

    def trace(self, path: str) -> dict[str, Any]:
        """The device trace since the warm-up, stopped and written to `path`."""
        if self.device_trace is None:
            return {"ok": True, "traced": False, "error": "not started"}
        device_trace, self.device_trace = self.device_trace, None
        return device_trace.stop(Path(path))

    def timed(self, pad_ms: float, params: dict[str, Any] | None = None,
              seed: int | None = None, output: str | None = None,
              meta: dict[str, Any] | None = None) -> dict[str, Any]:
        """One timed call, ended by a device sync (work left on any stream of the process is
        inside the command the supervisor times); `deliver` then hands its output over.
        With `params` and `seed`, the call's fresh inputs are staged first, outside the
        timing (one command per round instead of two)."""
        if params is not None and seed is not None:
            try:
                self.stage(params, seed, reuse=True)
            except Exception as exc:
                return {"ok": False, "kind": "stage", "error": describe_exception(exc, self.root)}
        if self.clock is None:
            self.clock = Clock(self.device)
        self.clock.set_pad_ms(pad_ms)
        threads = thread_count()  # counted outside the timed window
        try:
            (out, seen), read = self.clock.time_call(
                lambda: self._audited(lambda: self.fn(*self.args)))
            self.clock.synchronize()
            ms, pad_took = read()
        except Exception as exc:
            return self._failure(exc)
        seen["new_threads"] = max(0, thread_count() - threads)
        self.pending = out
        reply = {"ok": True, "ms": ms, "pad_ms": pad_took, **seen}
        if output is not None and meta is not None:
            # Handed over in the same command (the CPU platform): on the supervisor's clock.
            reply.update(self.deliver(output, meta))
        return reply

    def deliver(self, output: str, meta: dict[str, Any]) -> dict[str, Any]:
        """The last timed call's output, into the judge's file."""
        out, self.pending = self.pending, None
        return {"ok": True, **self._deliver(out, output, meta)}

    def exit(self) -> dict[str, Any]:
        return {"ok": True}

    # -- helpers -------------------------------------------------------------------------
    def _guarded(self, call: Any) -> tuple[Any, dict[str, Any]]:
        threads = thread_count()
        out, seen = self._audited(call)
        return out, {**seen, "new_threads": max(0, thread_count() - threads)}

    def _audited(self, call: Any) -> tuple[Any, dict[str, Any]]:
        """The call under the same audit as the judge's timed baseline (nothing more inside
        the timed window, so that both sides' windows hold the same harness work)."""
        assert self.launches is not None
        self.launches.reset()
        with OpAudit() as ops:
            out = call()
        return out, {"launches": self.launches.count,
                     "foreign_streams": self.launches.foreign_streams,
                     "torch_ops": dict(ops.disallowed.most_common(8))}

    def _deliver(self, out: Any, output: str, meta: dict[str, Any]) -> dict[str, Any]:
        """Copy the output into the judge's file, after the checks a reader cannot make: the
        exact tensor type and whether it is an input's memory."""
        expected = OutputMeta(meta["structure"], tuple(tuple(s) for s in meta["shapes"]),
                              tuple(getattr(torch, d) for d in meta["dtypes"]),
                              tuple(meta["devices"]))
        problem = check_structure(out, expected) or aliasing_problem(out, self.args,
                                                                     meta["in_place"])
        if problem is not None:
            return {"problem": problem.message}
        path = Path(output)
        header, start = tensorfile.read_header(path, 1 << 40)
        outs = [out] if isinstance(out, torch.Tensor) else list(out)
        for tensor, slot in zip(outs, tensorfile.slots(header, start), strict=True):
            tensorfile.map_slot(path, slot, writable=True).copy_(tensor.reshape(slot.shape))
        device_sync(self.device)
        return {}

    def _failure(self, exc: BaseException) -> dict[str, Any]:
        if type(exc).__name__ in NATIVE_OUTCOMES:
            return {"ok": False, "kind": NATIVE_OUTCOMES[type(exc).__name__], "error": str(exc)}
        fault = is_device_fault(exc)
        return {"ok": False, "kind": "crash" if fault else "raised", "fatal": fault,
                "error": describe_exception(exc, self.root)}


def _same_layout(a: Any, b: Any) -> bool:
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        return a.shape == b.shape and a.dtype == b.dtype and a.stride() == b.stride()
    return not isinstance(a, torch.Tensor) and not isinstance(b, torch.Tensor) and a == b


def _build(before: Any) -> dict[str, Any] | None:
    after = native_load_record()
    if after is None or after is before:
        return None
    return {"origin": after.origin, "binding": after.binding, "seconds": round(after.seconds, 2),
            "compiler": after.compiler, "arch": after.arch}


def main() -> int:
    runner = Runner()
    return serve({name: getattr(runner, name)
                  for name in ("prepare", "load", "stage", "call", "warm", "timed", "deliver",
                               "trace", "exit")})


if __name__ == "__main__":
    sys.exit(main())
