"""`aka report --format html`: one self-contained file, every task, the plots, escaped text."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from run_helpers import make_run, trial

from agentkernelarena.report import load_run
from agentkernelarena.report.html import report_html
from agentkernelarena.report.trial_detail import read_text

HOSTILE = '<script>alert("pwned")</script><img src="https://evil.example/x.png">'
PLOTS = ("plot-category", "plot-tasks", "plot-score", "plot-quadrants", "plot-effort")


def _with_files(run: Path, trial_id: str, transcript: str, diff: str,
                transcript_field: str | None = None) -> None:
    folder = run / "trials" / trial_id
    iteration = folder / "iterations" / "1"
    iteration.mkdir(parents=True)
    (iteration / "transcript.jsonl").write_text(transcript)
    (iteration / "stderr.log").write_text("warning: something on stderr\n")
    (folder / "patch.diff").write_text(diff)
    record = json.loads((folder / "trial.json").read_text())
    record["iterations"] = [{
        "index": 1,
        "outcome": {"failure": "ok", "exit_code": 0, "wall_s": 12.5, "tokens_in": 10,
                    "tokens_out": 5, "transcript": transcript_field or str(
                        iteration / "transcript.jsonl"), "message": ""},
        "agent_checks": [{"verdict": "incorrect", "correct": False, "speedup": None}],
        "check": {"source": "final_evaluation", "verdict": record["verdict"],
                  "speedup": record["speedup"], "feedback": "verdict: ok"}}]
    record["changed_files"] = ["kernel.py"]
    record["evaluation"]["configs"] = [{"name": "small", "correct": True, "max_abs_err": 1e-7,
                                        "baseline_ms": 0.5, "candidate_ms": 0.25,
                                        "speedup": 2.0}]
    (folder / "trial.json").write_text(json.dumps(record))


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    records = [trial("t2t/softmax", "ok", 2.0, held=(True, 1.8, "both_pass")),
               trial("t2t/layernorm", "incorrect", held=(False, None, "regression")),
               trial("h2h/gemm", "ok", 0.8, held=(True, 0.9, "both_pass")),
               trial("t2t/softmax", "ok", 1.5, agent="B", held=(True, 1.4, "both_pass")),
               trial("t2t/layernorm", "ok", 1.1, agent="B", held=(True, 1.0, "improvement")),
               trial("h2h/gemm", "compile_error", agent="B")]
    run = make_run(tmp_path / "run", records, agents=("A", "B"))
    _with_files(run, "A__t2t__softmax__0", f"line 1\n{HOSTILE}\nthe end\n",
                "--- a/kernel.py\n+++ b/kernel.py\n@@ -1 +1 @@\n-old = 1\n+new = 2  # </pre>\n")
    _with_files(run, "A__t2t__layernorm__0", "x" * 100_000 + "TAIL-MARKER",
                "--- a/kernel.py\n+++ b/kernel.py\n")
    # A record that points its transcript outside its trial folder: not read.
    outside = tmp_path / "secret.txt"
    outside.write_text("SECRET-OUTSIDE-THE-RUN")
    _with_files(run, "B__t2t__softmax__0", "fine", "", transcript_field=str(outside))
    (run / "trials" / "B__t2t__softmax__0" / "iterations" / "1" / "transcript.jsonl").unlink()
    # A corrupt record: reported as unreadable, the rest still reported.
    corrupt = run / "trials" / "B__h2h__gemm__0" / "trial.json"
    corrupt.write_text(corrupt.read_text()[:40])
    return run


def test_html_is_one_self_contained_file(run_dir: Path, aka, tmp_path: Path):
    out = tmp_path / "report.html"
    code, _, err = aka("report", str(run_dir), "--format", "html", "-o", str(out))
    assert code == 0 and "wrote" in err
    html = out.read_text()
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    # Nothing fetched: no external scripts, styles, images or links.
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", html, re.I)
    assert "<link" not in html and "@import" not in html and "url(" not in html
    assert html.count("<script>") == 1 and "<script src" not in html
    assert "<style>" in html
    for plot in PLOTS:
        assert f'id="{plot}"' in html
    assert html.count("<svg") >= len(PLOTS) + 1  # the A/B section's plot too
    for task in ("t2t/softmax", "t2t/layernorm", "h2h/gemm"):
        assert f">{task}<" in html
    assert html.count('<tbody class="trial"') == 5
    assert 'id="trial-table" class="sortable"' in html and 'id="filter-text"' in html


def test_hostile_transcript_is_escaped(run_dir: Path):
    html = report_html(load_run(run_dir))
    assert HOSTILE not in html and '<script>alert("pwned")' not in html
    assert "&lt;script&gt;alert(&#34;pwned&#34;)&lt;/script&gt;" in html
    assert "evil.example" in html  # shown, as text
    assert '<span class="add">+new = 2  # &lt;/pre&gt;</span>' in html  # the diff, escaped
    assert '<span class="del">-old = 1</span>' in html


def test_trial_details_are_there(run_dir: Path):
    html = report_html(load_run(run_dir))
    assert "transcript (transcript.jsonl)" in html and "warning: something on stderr" in html
    assert "checks the agent ran: incorrect" in html and "feedback the agent got" in html
    assert "<td class=\"l\">small</td>" in html  # the visible configurations
    assert "incorrect because" in html  # a reason
    assert "no diff recorded in the run folder" in html  # records without a patch.diff
    assert "no change to the editable files" in html  # an empty patch.diff


def test_long_transcripts_are_cut_and_outside_files_not_read(run_dir: Path):
    html = report_html(load_run(run_dir), transcript_limit=2000)
    assert "TAIL-MARKER" in html and "bytes cut: the file has 100,011" in html
    assert "x" * 1001 not in html
    assert "SECRET-OUTSIDE-THE-RUN" not in html
    assert read_text(run_dir.parent / "secret.txt", run_dir, 100) is None


def test_unreadable_and_missing_trials_are_reported(run_dir: Path):
    html = report_html(load_run(run_dir))
    assert "Could not read 1 trial record(s)" in html and "B__h2h__gemm__0" in html
    assert "planned trial(s) have not finished" not in html


def test_ab_run_gets_its_comparison_and_a_one_agent_run_does_not(run_dir: Path,
                                                                   tmp_path: Path):
    html = report_html(load_run(run_dir))
    assert 'id="compare"' in html and "too few tasks to tell" in html
    single = make_run(tmp_path / "one", [trial("t2t/a", "ok", 1.5)], missing=1)
    html = report_html(load_run(single))
    assert 'id="compare"' not in html and "1 planned trial(s) have not finished" in html


def test_html_of_an_empty_run(tmp_path: Path):
    run = make_run(tmp_path / "empty", [], missing=2)
    html = report_html(load_run(run))
    assert "<svg" not in html and "2 planned trial(s) have not finished" in html


def test_html_of_a_real_run(finished_run: Path, aka):
    code, out, _ = aka("report", str(finished_run), "--format", "html")
    assert code == 0 and "triton2triton/scale_add" in out
    assert all(f'id="{p}"' in out for p in PLOTS)
    assert "<strong>iteration 1</strong>" in out and "no transcript recorded" in out


def test_hostile_names_are_escaped_in_plots_and_tables(tmp_path: Path):
    name = 't2t/<img src=x onerror="alert(1)">'
    record = trial(name, "ok", 1.5, agent="A", held=(True, 1.2, "both_pass"))
    record["evaluation"]["reasons"] = ["</pre><script>alert(2)</script>"]
    run = tmp_path / "run"
    run.mkdir()
    (run / "manifest.json").write_text(json.dumps({
        "kind": "aka-run", "label": "<b>label</b>", "platform": "cuda",
        "identity": {"agents": [{"name": "noop", "label": "A"}]},
        "plan": [{"id": "A__x__0", "agent": "A", "task": name, "attempt": 0}]}))
    (run / "trials" / "A__x__0").mkdir(parents=True)
    (run / "trials" / "A__x__0" / "trial.json").write_text(json.dumps(record))
    html = report_html(load_run(run))
    assert "<img src=x" not in html and "<script>alert(2)" not in html and "<b>label" not in html
    assert "&lt;img src=x onerror=&#34;alert(1)&#34;&gt;" in html  # in the table and tooltips
    assert html.count("&lt;img src=x") >= 3  # the table, the per-task plot, the dots' titles
