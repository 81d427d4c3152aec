"""The planners' CSV downloads carry numbers as the pages show them, not float noise
(issue #20: "CSV values carry float noise (3683.100000000002)")."""

import csv
import io
import re

import pytest

from planning.services import plan as plans
from planning.services.csv_numbers import shown

from .helpers import DBS, run_submitted, submit

NOISY = re.compile(r"\d\.\d*(?:0{6,}|9{6,})\d")  # 3683.100000000002, 0.30000000000000004, 2.9999999999


def test_a_noisy_sum_reads_as_typed():
    assert shown("quantity", 3683.100000000002) == 3683.1
    assert shown("total_usd", 1234567.8912) == 1234567.89
    assert shown("length_m", 12.3456) == 12.35
    assert shown("p_good", 0.1 + 0.2) == 0.3
    assert shown("bound", 4.8e-8) == 4.8e-8  # small numbers keep their digits
    assert shown("links", 14) == 14 and shown("stretched", True) is True


@pytest.mark.django_db(transaction=True, databases=DBS)
def test_every_table_of_a_plan_has_no_float_noise(client_for):
    planner = client_for("planner")
    params = {"generate": {"k": 8, "max_length_m": 333.3, "lengths": "sampled", "seed": 7}, "nrb": 0.99}
    job = run_submitted(submit(planner, "rail.plan", params))
    # the stored result keeps exact arithmetic: some of its cells have more digits than shown
    raw = [
        (column, value)
        for table in (plans.costs_table, plans.sweeps_table)
        for header, rows in [table(job.result)]
        for row in rows
        for column, value in zip(header, row, strict=True)
    ]
    assert any(shown(column, value) != value for column, value in raw)
    for table in ("costs", "bands", "sweeps"):
        text = planner.get(f"/api/jobs/{job.pk}/result/?format=csv&table={table}").content.decode()
        assert not NOISY.search(text), (table, NOISY.search(text))
        for row in csv.DictReader(io.StringIO(text)):
            for column, cell in row.items():
                if column.endswith(("_usd", "_m")) and "." in cell:
                    assert len(cell.split(".")[1]) <= 2, (table, column, cell)
    costs = list(csv.DictReader(io.StringIO(planner.get(f"/api/jobs/{job.pk}/result/?format=csv").content.decode())))
    totals = {(row["design"], row["item"]): float(row["total_usd"]) for row in costs}
    for design in ("baseline", "plan"):
        for line in job.result[design]["lines"]:
            assert totals[(design, line["item"])] == round(line["total_usd"], 2)
