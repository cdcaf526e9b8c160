"""The HTML report in a real browser (headless Chromium, from Debian's `chromium` package):
the plots and the table render, sorting, filtering and opening a trial work, the console logs
no error, and a screenshot is saved (AKA_SCREENSHOT_DIR keeps it; default: the test's tmp)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from run_helpers import make_run, trial

from agentkernelarena.report import load_run
from agentkernelarena.report.html import report_html

CHROMIUM = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")
                 if shutil.which(n)), None)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium (apt-get install "
                                "chromium)")

# Run after the report's own script: drive the page as a person would, write what happened.
PROBE = """<script>
window.addEventListener('load', function () {
  var out = {};
  out.plots = document.querySelectorAll('figure svg').length;
  out.trials = document.querySelectorAll('tbody.trial').length;
  var first = document.querySelector('tbody.trial tr.main');
  first.click();
  out.opened = !first.parentNode.querySelector('tr.detail').hidden;
  out.transcript = first.parentNode.querySelector('pre.transcript').textContent;
  var heads = document.querySelectorAll('#trial-table thead th');
  var speed = Array.prototype.findIndex.call(heads, function (h) {
    return h.textContent === 'speedup'; });
  heads[speed].click(); heads[speed].click();  // descending
  out.top = document.querySelector('tbody.trial tr.main').cells[1].textContent;
  var box = document.getElementById('filter-text');
  box.value = 'layernorm'; box.dispatchEvent(new Event('input'));
  out.shown = document.querySelectorAll('tbody.trial:not([hidden])').length;
  box.value = ''; box.dispatchEvent(new Event('input'));
  var pre = document.createElement('pre'); pre.id = 'probe';
  pre.textContent = JSON.stringify(out); document.body.appendChild(pre);
});
</script></body>"""


def _chromium(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu",
                           "--hide-scrollbars", "--enable-logging=stderr", "--v=0",
                           "--no-first-run", *args], capture_output=True, text=True,
                          timeout=120)


def test_report_in_headless_chromium(tmp_path: Path):
    records = [trial("t2t/softmax", "ok", 2.0, held=(True, 1.8, "both_pass")),
               trial("t2t/layernorm", "incorrect", held=(False, None, "regression")),
               trial("h2h/gemm", "ok", 3.0, held=(True, 2.5, "both_pass")),
               trial("t2t/softmax", "ok", 1.5, agent="B", held=(True, 1.4, "both_pass")),
               trial("t2t/layernorm", "ok", 1.1, agent="B", held=(True, 1.0, "improvement"))]
    run = make_run(tmp_path / "run", records, agents=("A", "B"))
    folder = run / "trials" / "A__t2t__softmax__0"
    (folder / "iterations" / "1").mkdir(parents=True)
    (folder / "iterations" / "1" / "transcript.jsonl").write_text(
        "agent said: <script>document.title = 'owned'</script>\n")
    record = json.loads((folder / "trial.json").read_text())
    record["iterations"] = [{"index": 1, "outcome": {"failure": "ok"}, "check": None}]
    (folder / "trial.json").write_text(json.dumps(record))
    html = report_html(load_run(run))
    page = tmp_path / "report.html"
    page.write_text(html.replace("</body>", PROBE))

    dom = _chromium("--dump-dom", page.as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    probe = re.search(r'<pre id="probe">(.*?)</pre>', dom.stdout, re.S)
    assert probe, dom.stdout[-2000:]
    result = json.loads(probe.group(1).replace("&quot;", '"').replace("&lt;", "<")
                        .replace("&gt;", ">").replace("&amp;", "&"))
    assert result["plots"] >= 5 and result["trials"] == 5 and result["opened"]
    assert "<script>document.title = 'owned'</script>" in result["transcript"]  # as text
    assert result["top"] == "h2h/gemm"  # the fastest first after sorting descending
    assert result["shown"] == 2
    assert "<title>owned</title>" not in dom.stdout
    errors = [line for line in dom.stderr.splitlines()
              if "CONSOLE" in line and ("Uncaught" in line or "Error" in line)]
    assert not errors, errors

    shots = Path(os.environ.get("AKA_SCREENSHOT_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    shot = _chromium("--window-size=1300,2400", f"--screenshot={shots / 'report.png'}",
                     page.as_uri())
    assert shot.returncode == 0 and (shots / "report.png").stat().st_size > 10_000
