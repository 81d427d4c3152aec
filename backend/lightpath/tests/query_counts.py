"""The per-endpoint SQL query-count baseline (NetBox's idea): each generic API test records how
many queries one request costs and compares it with `query_counts.json`, committed beside this
module. More queries than the baseline fail (an N+1 or a lost select_related shows as "+5"); fewer
fail too, so the file stays true. `LIGHTPATH_REBASELINE_QUERIES=1 pytest ...` rewrites the counts
of the tests it runs instead of comparing."""

import json
import os
from pathlib import Path

BASELINE = Path(__file__).with_name("query_counts.json")
REBASELINE_VARIABLE = "LIGHTPATH_REBASELINE_QUERIES"


def rebaselining() -> bool:
    return os.environ.get(REBASELINE_VARIABLE, "") not in ("", "0")


def read_baseline() -> dict[str, int]:
    return json.loads(BASELINE.read_text()) if BASELINE.exists() else {}


def write_baseline(counts: dict[str, int]) -> None:
    # One key per line, sorted: a change to one endpoint's count is a one-line diff.
    BASELINE.write_text(json.dumps(counts, indent=1, sort_keys=True) + "\n")


def check(key: str, count: int, test_id: str) -> None:
    """Compare `count` queries of `key` ("GET /api/x/ list") with the baseline, or record it."""
    if rebaselining():
        counts = read_baseline()
        counts[key] = count
        write_baseline(counts)
        return
    hint = f"rebaseline: {REBASELINE_VARIABLE}=1 pytest {test_id}"
    baseline = read_baseline().get(key)
    if baseline is None:
        raise AssertionError(f"{key}: {count} queries, no baseline in {BASELINE.name}; {hint}")
    if count > baseline:
        raise AssertionError(f"{key}: {count} queries, baseline {baseline} (+{count - baseline})")
    if count < baseline:
        raise AssertionError(f"{key}: {count} queries, baseline {baseline} ({count - baseline}); {hint}")
