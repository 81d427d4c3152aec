"""An uploaded corruption trace: CSV `time_s,link,loss_rate`, its links named as the fabric names them."""

from __future__ import annotations

import csv
import io
import math
from typing import Any

from fabric.models import Fabric, Link
from lightpath.problems import Problems

TRACE_HEADER = ("time_s", "link", "loss_rate")
# Limits, documented in the README: they bound a job's memory, run time and result size.
MAX_TRACE_BYTES = 8 * 1024 * 1024
MAX_ONSETS = 200_000


def _link_names(fabric: Fabric) -> dict[str, int]:
    """Every name a trace may give a link: its id, either end as SWITCH:PORT, both ends in either order."""
    names: dict[str, int] = {}
    for link_id, a, a_port, z, z_port in Link.objects.filter(fabric=fabric).values_list(
        "id", "a_switch__name", "a_port", "z_switch__name", "z_port"
    ):
        a_end, z_end = f"{a}:{a_port}", f"{z}:{z_port}"
        for name in (str(link_id), a_end, z_end, f"{a_end}-{z_end}", f"{z_end}-{a_end}"):
            names[name] = link_id
    return names


def parse_csv(problems: Problems, text: Any, fabric: Fabric) -> list[list[Any]]:
    """CSV `time_s,link,loss_rate`, sorted by time; every bad line listed with its number."""
    if not isinstance(text, str):
        problems.add("trace.csv", "must be the CSV file's text")
        return []
    if len(text.encode()) > MAX_TRACE_BYTES:
        problems.add("trace.csv", f"is larger than the limit of {MAX_TRACE_BYTES // (1024 * 1024)} MiB")
        return []
    rows = csv.reader(io.StringIO(text.removeprefix("\ufeff")))
    header = next(rows, None)
    expected = ",".join(TRACE_HEADER)
    if header is None:
        problems.add("trace.csv", f"is empty; expected the header {expected}")
        return []
    if tuple(cell.strip().lower() for cell in header) != TRACE_HEADER:
        problems.add("trace.csv", f"expected the header {expected}, got {','.join(header)!r}", line=1)
        return []
    names = _link_names(fabric)
    onsets: list[list[Any]] = []
    previous: tuple[float, int] | None = None
    try:
        for row in rows:
            line = rows.line_num
            if not row or all(not cell.strip() for cell in row):
                continue
            if len(onsets) >= MAX_ONSETS:
                problems.add("trace.csv", f"more than {MAX_ONSETS} onsets", line=line)
                break
            if len(row) != len(TRACE_HEADER):
                problems.add("trace.csv", f"expected 3 fields ({expected}), got {len(row)}", line=line)
                continue
            time_text, link_text, rate_text = (cell.strip() for cell in row)
            bad = False
            try:
                time_s = float(time_text)
                if not (math.isfinite(time_s) and time_s >= 0):
                    raise ValueError
            except ValueError:
                problems.add("trace.csv", f"time {time_text!r} is not a finite number of seconds >= 0", line=line)
                bad = True
            else:
                if previous is not None and time_s < previous[0]:
                    problems.add(
                        "trace.csv",
                        f"time {time_text} s is before line {previous[1]}'s {previous[0]:g} s "
                        "(the trace must be sorted by time)",
                        line=line,
                    )
                    bad = True
            link_id = names.get(link_text)
            if link_id is None:
                problems.add("trace.csv", f"unknown link {link_text!r} in fabric {fabric.name!r}", line=line)
                bad = True
            try:
                rate = float(rate_text)
                if not 0.0 < rate <= 1.0:
                    raise ValueError
            except ValueError:
                problems.add("trace.csv", f"loss rate {rate_text!r} is not a fraction in (0, 1]", line=line)
                bad = True
            if not bad:
                previous = (time_s, line)
                onsets.append([time_s, link_id, rate])
    except csv.Error as exc:
        problems.add("trace.csv", str(exc), line=rows.line_num)
    if not onsets and not problems.rows:
        problems.add("trace.csv", "holds no onsets after its header")
    return onsets
