"""Repository tasks (issue 17) on a tiny upstream project served from a local index: the pinned
release fetched into a cache and verified, the evaluation taking only the target files, runs
that work offline once the cache is filled, and one-line errors for bad pins and targets."""

from __future__ import annotations

import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from repository_release import add_requirement, build_release, task_yaml, write_task

from agentkernelarena.errors import AkaError, TaskError
from agentkernelarena.evaluate import EvalOptions, evaluate
from agentkernelarena.tasks import load_task
from agentkernelarena.tasks.check import check_task
from agentkernelarena.tasks.upstream_cache import (
    archive_path,
    check_targets,
    fetch,
    package_root,
    ready,
    unpacked_path,
)
from agentkernelarena.workspace import materialize

OFFLINE_INDEX = "http://127.0.0.1:9/simple"  # nothing listens on the discard port


@pytest.fixture
def release(tmp_path, monkeypatch):
    monkeypatch.setenv("AKA_CACHE_DIR", str(tmp_path / "cache"))
    made = build_release(tmp_path / "upstream")
    monkeypatch.setenv("AKA_PACKAGE_INDEX", made.index)
    return made


@pytest.fixture
def task(release):
    return load_task(release.task_dir())


def _options(**kw) -> EvalOptions:
    return EvalOptions(platform="cpu", sandbox="auto", seed=7, **kw)


def _candidate(task, tmp_path: Path) -> Path:
    """A copy of the pristine package, as an agent's workspace holds it."""
    folder = tmp_path / "candidate"
    shutil.copytree(package_root(task) / "tinyops", folder / "tinyops")
    return folder


def test_fetch_verifies_unpacks_and_names_the_targets(task):
    folder = fetch(task)
    assert (folder / "tinyops-1.0" / "src" / "tinyops" / "scale.py").is_file()
    assert archive_path(task.upstream).is_file()
    check_targets(task)  # the target file and its function exist in the pinned release
    info = task.public_json()["upstream"]
    assert info["version"] == "1.0" and info["functions"] == {"tinyops/scale.py": ["scale"]}


def test_a_change_outside_the_targets_is_ignored_and_reported(task, tmp_path):
    fetch(task)
    candidate = _candidate(task, tmp_path)
    # Were consts.py taken, every output would be 3x instead of 2x the input.
    (candidate / "tinyops" / "consts.py").write_text("FACTOR = 3.0\n")
    (candidate / "NOTES.md").write_text("a file the agent left\n")
    result = evaluate(task, candidate, _options())
    assert result["verdict"] == "ok", result["reasons"]
    assert result["ignored_files"] == ["NOTES.md", "tinyops/consts.py"]
    assert any("ignored changes outside the editable files: NOTES.md, tinyops/consts.py" in r
               for r in result["reasons"])
    assert result["upstream_tests"]["ok"] is True  # device: any, so they ran on the CPU


def test_the_target_file_is_what_the_evaluation_takes(task, tmp_path):
    fetch(task)
    candidate = _candidate(task, tmp_path)
    target = candidate / "tinyops" / "scale.py"
    target.write_text(target.read_text().replace("x * factor", "x * factor + 1.0"))
    result = evaluate(task, candidate, _options(held_out=False))
    assert result["verdict"] == "incorrect" and result["ignored_files"] == []


def test_failing_upstream_tests_make_a_correct_candidate_incorrect(task, tmp_path):
    fetch(task)
    candidate = _candidate(task, tmp_path)
    target = candidate / "tinyops" / "scale.py"
    # The arena's checks cannot see this; the project's own test of the target does.
    target.write_text(target.read_text().replace('"scale by FACTOR"', '"scale"'))
    result = evaluate(task, candidate, _options(held_out=False))
    assert result["verdict"] == "incorrect"
    assert result["upstream_tests"]["ran"] and not result["upstream_tests"]["ok"]
    assert any("project's own tests of the target fail" in r for r in result["reasons"])
    # the record keeps the outcome, not what the candidate's pytest process printed
    assert "output_tail" not in result["upstream_tests"]


def test_a_run_works_offline_once_the_cache_is_filled(release, task, tmp_path, monkeypatch):
    fetch(task)
    monkeypatch.setenv("AKA_PACKAGE_INDEX", OFFLINE_INDEX)
    release.archive.unlink()  # the "network" copy is gone too
    result = evaluate(task, _candidate(task, tmp_path), _options(held_out=False))
    assert result["verdict"] == "ok", result["reasons"]
    shutil.rmtree(unpacked_path(task.upstream))  # unpacked again from the cached file, offline
    assert (fetch(task) / "tinyops-1.0").is_dir()


def test_a_missing_cache_without_network_names_the_task_and_the_fix(task, tmp_path, monkeypatch):
    monkeypatch.setenv("AKA_PACKAGE_INDEX", OFFLINE_INDEX)
    (tmp_path / "tinyops").mkdir()
    (tmp_path / "tinyops" / "scale.py").write_text("# an agent's version\n")
    with pytest.raises(AkaError) as info:
        evaluate(task, tmp_path, _options())
    message = str(info.value)
    assert "task repository/tiny_scale: tinyops-1.0.tar.gz is not in the cache" in message
    assert "aka tasks fetch repository/tiny_scale" in message and "\n" not in message


def test_a_checksum_mismatch_is_an_error_and_nothing_is_cached(release, tmp_path):
    write_task(release, task_yaml("0" * 64))  # quoted: a text, not the number 0
    task = load_task(release.task_dir())
    with pytest.raises(AkaError) as info:
        fetch(task)
    assert "task repository/tiny_scale: checksum mismatch for tinyops-1.0.tar.gz" in str(info.value)
    assert "\n" not in str(info.value)
    assert not archive_path(task.upstream).exists()
    out = subprocess.run([sys.executable, "-m", "agentkernelarena", "tasks", "fetch",
                          "repository/tiny_scale", "--tasks-dir", str(release.tasks_dir)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 1
    assert "FAIL task repository/tiny_scale: checksum mismatch" in out.stdout


def test_a_target_missing_from_the_pinned_version_is_named(release):
    write_task(release, task_yaml(release.sha256, target="tinyops/gone.py"))
    task = load_task(release.task_dir())
    with pytest.raises(AkaError) as info:
        check_targets(task)
    assert str(info.value).startswith("task repository/tiny_scale: target file tinyops/gone.py "
                                      "does not exist in tinyops 1.0")
    report = check_task(task, "cpu", soundness=False)
    assert not report["ok"] and "tinyops/gone.py does not exist" in report["problems"][0]


def test_upstream_tests_failing_on_the_baseline_are_a_task_problem(release):
    write_task(release, task_yaml(release.sha256,
                                  tests_run="tests/test_scale.py::test_nothing_here"))
    report = check_task(load_task(release.task_dir()), "cpu", soundness=False)
    assert not report["ok"]
    assert any("the upstream tests fail on the pristine baseline" in p
               for p in report["problems"]), report["problems"]
    assert any("test_nothing_here" in p for p in report["problems"])  # the task's own output


def test_check_passes_on_the_pristine_release(task):
    report = check_task(task, "cpu", soundness=False)
    assert report["ok"], report["problems"]
    assert report["upstream_tests"]["baseline"]["ok"] is True


def test_the_workspace_holds_the_package_with_only_the_target_writable(task, tmp_path):
    workspace = materialize(task, tmp_path / "ws")
    assert (workspace / "tinyops" / "consts.py").is_file()
    assert not (workspace / "tinyops" / "consts.py").stat().st_mode & stat.S_IWUSR
    assert not (workspace / "entry.py").stat().st_mode & stat.S_IWUSR
    assert (workspace / "tinyops" / "scale.py").stat().st_mode & stat.S_IWUSR
    card = (workspace / "TASK.md").read_text()
    assert "`tinyops` 1.0 package" in card and "`tinyops/scale.py`: `scale`" in card
    assert not (workspace / "task.yaml").exists()


def test_spec_errors_name_the_field(release):
    text = task_yaml(release.sha256).replace("root: tinyops-1.0/src", "root: ../elsewhere")
    write_task(release, text)
    with pytest.raises(TaskError, match="upstream.root"):
        load_task(release.task_dir())
    text = task_yaml(release.sha256).replace("editable: [tinyops/scale.py]",
                                             "editable: [entry.py]")
    write_task(release, text)
    with pytest.raises(TaskError, match="not inside the upstream package"):
        load_task(release.task_dir())


def test_a_run_checks_the_cache_and_the_platform_before_agents_start(release, monkeypatch):
    text = task_yaml(release.sha256).replace(
        "  packages: [tinyops]\n", "  packages: [tinyops]\n  cpu_unsupported: needs a GPU\n")
    write_task(release, text)
    task = load_task(release.task_dir())
    with pytest.raises(AkaError, match="cannot be evaluated on the CPU platform: needs a GPU"):
        ready(task, "cpu")
    monkeypatch.setenv("AKA_PACKAGE_INDEX", OFFLINE_INDEX)
    with pytest.raises(AkaError, match="is not in the cache"):
        ready(task, "cuda")
    monkeypatch.setenv("AKA_PACKAGE_INDEX", release.index)
    ready(task, "cuda")  # fetched now
    assert unpacked_path(task.upstream).is_dir()


def test_a_required_release_is_fetched_and_importable_in_the_evaluation(release, tmp_path):
    requires = add_requirement(release)
    text = task_yaml(release.sha256).replace("  packages: [tinyops]\n",
                                             "  packages: [tinyops]\n" + requires)
    write_task(release, text)
    task = load_task(release.task_dir())
    assert task.public_json()["upstream"]["requires"] == ["tinydep==0.1"]
    fetch(task)
    candidate = _candidate(task, tmp_path)
    target = candidate / "tinyops" / "scale.py"
    # The candidate's version imports the requirement: only there if the evaluation put it.
    target.write_text(target.read_text().replace("from tinyops.consts import FACTOR",
                                                 "from tinydep import FACTOR"))
    result = evaluate(task, candidate, _options(held_out=False))
    assert result["verdict"] == "ok", result["reasons"]
    assert result["upstream_tests"]["ok"] is True
