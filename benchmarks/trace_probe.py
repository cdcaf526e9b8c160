"""What the device trace (evaluate/device_trace.py) records on this GPU, and what it costs.

Times a Triton kernel, an ATen kernel and a call that also runs a kernel on a side stream with
the arena's clock while tracing, then prints the kernels' names and streams, the windows the
rules find between the harness's marks, how each window agrees with the event time, and the
verdicts of trace_rules on each. Finally the clock's median for the Triton call with and without
tracing (the cost of the witness).

Usage: PYTHONPATH=src python3 benchmarks/trace_probe.py [--json OUT.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

import torch
import triton
import triton.language as tl

from agentkernelarena.evaluate import trace_rules
from agentkernelarena.evaluate.device_trace import DeviceTrace
from agentkernelarena.evaluate.timing import Clock


@triton.jit
def probe_scale_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 2.0, mask=mask)


def triton_call(x: torch.Tensor, y: torch.Tensor):
    n = x.numel()
    return lambda: probe_scale_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)


def rounds(clock: Clock, fn, count: int) -> list[float]:
    readers = []
    for _ in range(count):
        _, read = clock.time_call(fn)
        readers.append(read)
    clock.synchronize()
    return [read()[0] for read in readers]


def traced(clock: Clock, fn, count: int, path: Path) -> tuple[list[float], list]:
    trace = DeviceTrace("cuda")
    trace.start()
    times = rounds(clock, fn, count)
    status = trace.stop(path)
    if not status.get("traced"):
        raise SystemExit(f"no trace: {status}")
    return times, trace_rules.read_trace(path)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("no GPU", file=sys.stderr)
        return 1
    x = torch.randn(1 << 24, device="cuda")
    y = torch.empty_like(x)
    side = torch.cuda.Stream()

    def side_call():
        y.copy_(x)
        with torch.cuda.stream(side):
            torch.mul(x, 3.0, out=y)
        return y

    clock = Clock("cuda")
    clock.set_pad_ms(0.2)
    calls = {"triton": triton_call(x, y), "aten_add": lambda: torch.add(x, 1.0, out=y),
             "side_stream": side_call}
    own = {"probe_scale_kernel"}
    report: dict = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
                    "triton": triton.__version__, "cases": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for name, fn in calls.items():
            for _ in range(3):
                fn()
            times, kernels = traced(clock, fn, 20, Path(tmp) / f"{name}.json")
            found, problem = trace_rules.windows(kernels, len(times))
            pairs = zip(found, times, strict=False)
            agree = [((end - start) / 1e6) / t for (_, start, end), t in pairs]
            case = {
                "kernel_names": sorted({k.name[:100] for k in kernels}),
                "streams": sorted({k.stream for k in kernels}),
                "window_problem": problem,
                "window_over_event": [round(min(agree), 4), round(statistics.median(agree), 4),
                                      round(max(agree), 4)] if agree else None,
                "event_ms_median": round(statistics.median(times), 5),
                "structural": trace_rules.structural_problem(kernels, times),
                "as_triton_task": trace_rules.candidate_problems(kernels, times, own, True),
                "as_torch_allowed": trace_rules.candidate_problems(kernels, times, own, False),
            }
            report["cases"][name] = case
        # The witness's cost: the same Triton call's median, traced and not, interleaved.
        plain, with_trace = [], []
        for _ in range(5):
            plain.append(statistics.median(rounds(clock, calls["triton"], 40)))
            times, _ = traced(clock, calls["triton"], 40, Path(tmp) / "cost.json")
            with_trace.append(statistics.median(times))
        report["cost"] = {"plain_ms": round(statistics.median(plain), 5),
                          "traced_ms": round(statistics.median(with_trace), 5),
                          "ratio": round(statistics.median(with_trace)
                                         / statistics.median(plain), 4)}
    text = json.dumps(report, indent=1)
    print(text)
    if args.json:
        args.json.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
