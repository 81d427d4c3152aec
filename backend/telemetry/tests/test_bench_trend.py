"""backend/scripts/bench_trend.py on a tiny re-analysis (400 links x 8 days): each lane count runs
in a child process and reports the rows it fed, the links its falling receivers put at risk, and
its times and peak memory (what BENCHMARKS.md's table is made of)."""

import json
import subprocess
import sys
from pathlib import Path

from lightpath.tests.scripts import script_path

SCRIPT = script_path("bench_trend")


def test_a_tiny_re_analysis_reports_rows_forecasts_times_and_memory(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    command = [sys.executable, str(SCRIPT), "--links", "400", "--days", "8", "--lanes", "1", "4", "--json", str(out)]
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    results = json.loads(out.read_text())
    assert [r["lanes"] for r in results] == [1, 4]
    for result in results:
        assert result["rows"] == 400 * 2 * 192  # every end, every hour: all applied
        assert result["values"] == result["rows"] * (3 * result["lanes"] + 1)
        # 1% of the links' side Z receivers fall to cross within 1-5 days: those, and only those, are at risk.
        assert result["falling_links"] >= 1
        assert result["at_risk"] == result["reported"] == result["falling_links"]
        assert result["engine_s"] >= result["apply_readings_s"] > 0
        assert result["peak_rss_mb"] > 0
    assert len(done.stdout.splitlines()) == 2 and "400 links x 8 days hourly, 4 lane(s)" in done.stdout
