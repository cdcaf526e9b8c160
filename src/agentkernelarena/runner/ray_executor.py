"""`--executor ray`: the same trial function on a Ray cluster, one GPU per evaluation.

Design. A trial is a Ray task that asks for one CPU and *no* GPU: an agent spends most of a
trial thinking or waiting on its model's API, and a GPU held for that whole time would sit idle.
Every evaluation of the trial (the agent's local checks and the final one) is a nested Ray task
that asks for one GPU (`num_gpus=1`); Ray's scheduler is then the cluster-wide pool of
runner/gpus.py: at most one evaluation per GPU, first come first served, and Ray sets
CUDA_VISIBLE_DEVICES (or its ROCm equivalent) in the evaluating process, which the evaluation
worker inherits. While a trial waits for its evaluation, Ray lends its CPU to other tasks.

Nothing assumes a shared file system. A trial runs in a temporary folder on its node; the
evaluation task receives the workspace as a small tarball (it may land on another node); when
the trial ends its folder comes back to the driver as a tarball and is unpacked into
trials/<id>/, paths in the record rewritten, and trial.json written last and atomically, exactly
as on one machine. The nodes need the arena installed and the task folders at the same paths
(a shared image or checkout), as for any Ray job.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import tarfile
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

from agentkernelarena.agents.registry import AgentSpec
from agentkernelarena.errors import AkaError
from agentkernelarena.evaluate import EvalOptions, evaluate
from agentkernelarena.runner.plan import TRIAL_JSON, RunPlan, TrialKey, save_final_files, wipe
from agentkernelarena.runner.record import write_json_atomic
from agentkernelarena.tasks.spec import Task

MAX_FILE_BYTES = 64 * 2**20  # larger files (build products, dumps) stay on the node
_SKIP_PARTS = {"__pycache__", ".aka_build", ".git"}
_REMOTE: dict[str, Any] = {}


def pack(folder: Path, exclude: frozenset[str] = frozenset()) -> tuple[bytes, list[str]]:
    """A gzipped tarball of `folder` and the files left out of it (too large, or links)."""
    skipped: list[str] = []
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for path in sorted(folder.rglob("*")):
            rel = path.relative_to(folder)
            if set(rel.parts) & _SKIP_PARTS or rel.as_posix() in exclude:
                continue
            if path.is_symlink() or (path.is_file() and path.stat().st_size > MAX_FILE_BYTES):
                skipped.append(rel.as_posix())
                continue
            if path.is_file() or path.is_dir():
                tar.add(path, arcname=rel.as_posix(), recursive=False)
    return buffer.getvalue(), skipped


def unpack(data: bytes, dest: Path) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(dest, filter="data")
        else:  # pragma: no cover - Python < 3.11.4
            tar.extractall(dest)  # noqa: S202 - our own tarball


def _node() -> str:
    import ray

    try:
        return str(ray.util.get_node_ip_address())
    except Exception:
        return os.uname().nodename


def remote_evaluate(task: Task, workspace_tar: bytes, options: EvalOptions) -> dict[str, Any]:
    """A Ray task holding the GPU(s) Ray gave it: evaluate an unpacked copy of the workspace."""
    import ray

    root = Path(tempfile.mkdtemp(prefix="aka-ray-eval-"))
    try:
        unpack(workspace_tar, root / "workspace")
        result = evaluate(task, root / "workspace", options)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    result["scheduler"] = {"executor": "ray", "node": _node(),
                           "gpu_ids": [str(g) for g in ray.get_gpu_ids()],
                           "visible_devices": os.environ.get("CUDA_VISIBLE_DEVICES")}
    return result


def _remote(name: str, fn: Any, **options: Any) -> Any:
    """ray.remote(fn), made once per process (Ray is an optional import)."""
    import ray

    if name not in _REMOTE:
        _REMOTE[name] = ray.remote(fn)
    return _REMOTE[name].options(**options)


class RayEvaluator:
    """An evaluator (evaluate()'s signature) that runs each evaluation as a Ray task."""

    def __init__(self, resources: dict[str, float]) -> None:
        self.resources = resources

    def __call__(self, task: Task, solution_dir: Path,
                 options: EvalOptions | None = None) -> dict[str, Any]:
        import ray

        data, _ = pack(Path(solution_dir))
        started = time.monotonic()
        ref = _remote("evaluate", remote_evaluate, max_retries=0, **self.resources).remote(
            task, data, options or EvalOptions())
        result = ray.get(ref)
        result["scheduler"]["round_trip_s"] = round(time.monotonic() - started, 3)
        return result


def remote_trial(task: Task, spec: AgentSpec, trial_id: str, options: dict[str, Any],
                 eval_resources: dict[str, float]) -> tuple[dict[str, Any], bytes, str, str,
                                                            list[str]]:
    """A Ray task: one trial in a temporary folder, returned as (record, tarball, folder,
    node, files left out)."""
    from agentkernelarena.runner.trial import TrialOptions, run_trial

    root = Path(tempfile.mkdtemp(prefix="aka-ray-trial-"))
    try:
        trial_dir = root / "trials" / trial_id
        record = run_trial(task, spec, trial_dir, TrialOptions(
            **options, evaluator=RayEvaluator(eval_resources)))
        save_final_files(task, trial_dir)
        data, skipped = pack(trial_dir, exclude=frozenset({TRIAL_JSON}))
        return record, data, str(trial_dir), _node(), skipped
    finally:
        shutil.rmtree(root, ignore_errors=True)


def install_trial(plan: RunPlan, key: TrialKey, record: dict[str, Any], data: bytes,
                  remote_dir: str, node: str, skipped: list[str]) -> dict[str, Any]:
    """Unpack a trial that ran elsewhere into its folder; trial.json last, atomically."""
    trial_dir = plan.trial_dir(key)
    wipe(trial_dir)
    unpack(data, trial_dir)
    text = json.dumps(record, default=str).replace(json.dumps(remote_dir)[1:-1],
                                                   json.dumps(str(trial_dir))[1:-1])
    record = json.loads(text)
    record["executor"] = {"kind": "ray", "node": node, "remote_dir": remote_dir,
                          "files_left_on_node": skipped}
    write_json_atomic(trial_dir / TRIAL_JSON, record)
    return record


def eval_resources(plan: RunPlan) -> dict[str, float]:
    gpus = plan.config.ray_eval_gpus
    if gpus is None:
        gpus = 0.0 if plan.platform.name == "cpu" else 1.0
    return {"num_cpus": 1, "num_gpus": gpus}


def connect(plan: RunPlan) -> dict[str, float]:
    """Join (or start) the Ray cluster and check it can run an evaluation; before any trial."""
    import ray

    if not ray.is_initialized():
        try:
            ray.init(address=plan.config.ray_address, include_dashboard=False,
                     log_to_driver=False)
        except Exception as exc:
            where = plan.config.ray_address or "a new local instance"
            raise AkaError(f"cannot reach the Ray cluster at {where}: "
                           f"{type(exc).__name__}: {exc}",
                           "check --ray-address (e.g. auto, or ray://host:10001)") from None
    resources = ray.cluster_resources()
    need = eval_resources(plan)["num_gpus"]
    if need and resources.get("GPU", 0) < need:
        raise AkaError(f"the Ray cluster has {resources.get('GPU', 0):g} GPU(s); each "
                       f"evaluation needs {need:g}", "add GPU nodes, or use --platform cpu")
    return resources


def run_on_ray(plan: RunPlan, todo: list[TrialKey], progress: Any, outcome: Any) -> None:
    import ray

    resources = connect(plan)
    per_eval = eval_resources(plan)
    slots = int(resources.get("GPU", 0) // per_eval["num_gpus"]) if per_eval["num_gpus"] \
        else int(resources.get("CPU", 1))
    concurrency = plan.config.concurrency or max(1, slots)
    options = {"max_iterations": plan.config.max_iterations,
               "time_limit_s": plan.config.time_limit_s, "platform": plan.platform.name,
               "sandbox": plan.config.sandbox, "timing": plan.config.timing}
    outcome.pool = {"executor": "ray", "cluster": resources, "per_evaluation": per_eval,
                    "concurrency": concurrency}
    progress.print(f"ray: {resources.get('CPU', 0):g} CPU, {resources.get('GPU', 0):g} GPU; "
                   f"{concurrency} trial(s) at once, evaluations with {per_eval}")
    pending = list(reversed(todo))
    running: dict[Any, TrialKey] = {}
    try:
        while pending or running:
            while pending and len(running) < concurrency:
                key = pending.pop()
                progress.trial_started(key.id)
                ref = _remote("trial", remote_trial, num_cpus=1, max_retries=0).remote(
                    plan.tasks[key.task], plan.agents[key.agent], key.id,
                    {**options, "seed": plan.trial_seed(key), "attempt": key.attempt},
                    per_eval)
                running[ref] = key
            ready, _ = ray.wait(list(running), num_returns=1, timeout=1.0)
            for ref in ready:
                key = running.pop(ref)
                try:
                    record = install_trial(plan, key, *ray.get(ref))
                except Exception as exc:
                    outcome.failed.append(key.id)
                    progress.trial_failed(key.id, str(exc) if isinstance(exc, AkaError)
                                          else traceback.format_exc())
                    continue
                outcome.finished += 1
                progress.trial_finished(key.id, record)
    except KeyboardInterrupt:
        outcome.interrupted = True
        progress.print(f"interrupted: cancelling {len(running)} running trial(s); "
                       "`aka run --resume` reruns them")
        for ref in running:
            ray.cancel(ref, force=True)
