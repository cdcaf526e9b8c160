"""Runs a KernelBench-convention problem (problem.py, kept verbatim) for the arena.

Written by `aka tasks import kernelbench` into every task it makes, so that the task folder works
on its own. A configuration sets the problem's module-level int constants: problem.py is executed
again with those assignments replaced, so constants derived from them follow. The arguments of
the entry, the reference and the baseline are, in this order:

  the tensors and values of get_inputs(), then the model's parameters and buffers (named in
  reference.py), then the values of the configuration's constants.

The parameters are those of `Model(*get_init_inputs())` built after `torch.manual_seed(seed)`
(floating ones that PyTorch initialises to a constant, such as a norm's weight, get a little
seeded noise: a kernel that ignored them would otherwise pass), so every seed is another model.
"""

from __future__ import annotations

import ast
import sys
import types
from pathlib import Path
from typing import Any

import torch
from torch.func import functional_call

NOISE = 0.1


def _rng_devices(device: str) -> list[int]:
    """The CUDA devices whose random state a forked RNG must save and restore."""
    dev = torch.device(device)
    if dev.type != "cuda":
        return []
    return [dev.index if dev.index is not None else torch.cuda.current_device()]


class Problem:
    def __init__(self, path: Path, constants: list[str], n_inputs: int, state: list[str]) -> None:
        self.path = Path(path)
        self.source = self.path.read_text()
        self.constants = list(constants)
        self.n_inputs = n_inputs
        self.state = list(state)
        self._modules: dict[tuple[Any, ...], types.ModuleType] = {}
        self._models: dict[tuple[Any, ...], tuple[torch.nn.Module, set[str]]] = {}

    def module(self, values: dict[str, Any]) -> types.ModuleType:
        """problem.py executed with its int constants set to `values` (cached per values)."""
        key = tuple(sorted(values.items()))
        if key in self._modules:
            return self._modules[key]
        tree = ast.parse(self.source, str(self.path))
        for node in tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                    and isinstance(node.targets[0], ast.Name) and node.targets[0].id in values:
                node.value = ast.copy_location(ast.Constant(values[node.targets[0].id]),
                                               node.value)
        name = f"kb_problem_{abs(hash((str(self.path), key)))}"
        module = types.ModuleType(name)
        module.__file__ = str(self.path)
        sys.modules[name] = module
        exec(compile(tree, str(self.path), "exec"), module.__dict__)  # noqa: S102 - the problem
        self._modules[key] = module
        return module

    def _build(self, module: types.ModuleType, device: str) -> torch.nn.Module:
        init = list(module.get_init_inputs()) if hasattr(module, "get_init_inputs") else []
        with torch.device(device):
            return module.Model(*init)

    def make_inputs(self, config: dict[str, Any], seed: int, device: str) -> tuple:
        values = {c: config[c] for c in self.constants}
        module = self.module(values)
        with torch.random.fork_rng(devices=_rng_devices(device)):
            torch.manual_seed(seed)
            with torch.device(device):
                inputs = list(module.get_inputs())
            model = self._build(module, device)
            tensors = dict(model.named_parameters())
            tensors.update(dict(model.named_buffers()))
            state = []
            for name in self.state:
                t = tensors[name].detach().clone()
                if t.is_floating_point() and t.numel() > 1 and bool((t == t.flatten()[0]).all()):
                    scale = NOISE * max(abs(float(t.flatten()[0])), 1.0)
                    t = t + scale * (torch.rand_like(t) * 2 - 1)
                state.append(t)
        inputs = [x.to(device) if isinstance(x, torch.Tensor) else x for x in inputs]
        return (*inputs, *state, *[values[c] for c in self.constants])

    def model(self, values: dict[str, Any], device: torch.device) -> tuple[torch.nn.Module,
                                                                          set[str]]:
        """The model's structure for one configuration (its tensors are replaced per call)."""
        key = (tuple(sorted(values.items())), str(device))
        if key not in self._models:
            with torch.random.fork_rng(devices=_rng_devices(str(device))):
                model = self._build(self.module(values), str(device))
            self._models[key] = (model, {n for n, _ in model.named_buffers()})
        return self._models[key]

    def run(self, args: tuple, clone_inputs: bool) -> Any:
        """Model.forward on `args` (the layout above). Buffers are always cloned (a BatchNorm in
        training mode updates its running statistics); inputs too when `clone_inputs`."""
        n_state = len(self.state)
        inputs = list(args[:self.n_inputs])
        state = args[self.n_inputs:self.n_inputs + n_state]
        values = dict(zip(self.constants, args[self.n_inputs + n_state:], strict=True))
        device = next((a.device for a in args if isinstance(a, torch.Tensor)),
                      torch.device("cpu"))
        model, buffers = self.model(values, device)
        tensors = {name: (t.clone() if name in buffers else t)
                   for name, t in zip(self.state, state, strict=True)}
        if clone_inputs:
            inputs = [x.clone() if isinstance(x, torch.Tensor) else x for x in inputs]
        with torch.no_grad():
            return functional_call(model, tensors, tuple(inputs))


def load(task_file: str, constants: list[str], n_inputs: int, state: list[str]) -> Problem:
    return Problem(Path(task_file).resolve().with_name("problem.py"), constants, n_inputs, state)
