"""${task_id}: the reference and the inputs, from problem.py (a KernelBench-convention problem).

Written by `aka tasks import kernelbench`; kb_harness.py says how arguments are laid out.
"""

import importlib.util
from pathlib import Path


def _harness():
    path = Path(__file__).resolve().with_name("kb_harness.py")
    spec = importlib.util.spec_from_file_location(f"kb_harness_{abs(hash(str(path)))}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CONSTANTS = ${constants}
N_INPUTS = ${n_inputs}
STATE = ${state}
PROBLEM = _harness().load(__file__, CONSTANTS, N_INPUTS, STATE)


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    return PROBLEM.make_inputs(config, seed, device)


def reference(*args):
    """Model.forward of problem.py with the given parameters (inputs are not modified)."""
    return PROBLEM.run(args, clone_inputs=True)
