"""fabric show|set: the forecast settings (issue #19, trial 27 item 12) against the real backend.
Horizon, least confidence and automatic preventive tickets were readable and changeable only
through the raw API."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest
from cli_testing import Cli

if not os.environ.get("DJANGO_SETTINGS_MODULE"):
    pytest.skip("needs the backend's Django settings: run pytest from the repository root", allow_module_level=True)

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")


def rows(result: Any) -> dict[str, str]:
    """`fabric show`'s table: label -> value."""
    assert result.exit_code == 0, result.stderr
    found = {}
    for line in result.stdout.splitlines():
        for label in ("Forecast horizon", "Least confidence", "Auto preventive"):
            if line.strip().startswith(label):
                found[label] = line.strip()[len(label) :].strip()
    return found


def test_show_prints_them_and_an_operator_sets_them(demo: Any, log_in: Callable[[str, str], Cli]) -> None:
    from fabric.models import Fabric

    operator = log_in("cli-operator", "operator")
    assert rows(operator("fabric", "show", "demo-fb")) == {
        "Forecast horizon": "7 days",
        "Least confidence": "80%",
        "Auto preventive": "no",
    }
    changed = operator(
        "fabric", "set", "demo-fb", "--forecast-horizon-days", "1", "--forecast-min-confidence", "0.7",
        "--auto-preventive-tickets",
    )  # fmt: skip
    assert rows(changed) == {"Forecast horizon": "1 day", "Least confidence": "70%", "Auto preventive": "yes"}
    stored = Fabric.objects.get(pk=demo.pk)
    assert (stored.forecast_horizon_days, stored.forecast_min_confidence, stored.auto_preventive_tickets) == (
        1,
        0.7,
        True,
    )
    # Only what is named changes; JSON is the fabric as `fabric show --output json`.
    shown = operator.json("fabric", "set", "demo-fb", "--no-auto-preventive-tickets")
    assert (shown["forecast_horizon_days"], shown["forecast_min_confidence"], shown["auto_preventive_tickets"]) == (
        1,
        0.7,
        False,
    )


def test_refusals_are_one_line(demo: Any, log_in: Callable[[str, str], Cli]) -> None:
    operator = log_in("cli-operator", "operator")
    bad = operator("fabric", "set", "demo-fb", "--forecast-horizon-days", "0", "--forecast-min-confidence", "2")
    assert bad.exit_code == 1 and bad.stdout == ""
    assert bad.stderr.count("\n") == 1 and bad.stderr.startswith("error: the settings of fabric 'demo-fb' rejected: ")
    assert "forecast_horizon_days" in bad.stderr and "forecast_min_confidence" in bad.stderr
    nothing = operator("fabric", "set", "demo-fb")
    assert nothing.exit_code == 2 and nothing.stderr.startswith("error: nothing to set: give --forecast-horizon-days")
    planner = log_in("cli-planner2", "planner")
    refused = planner("fabric", "set", "demo-fb", "--auto-preventive-tickets")
    assert refused.exit_code == 1 and refused.stderr.count("\n") == 1, refused.stderr
    assert "auto_preventive_tickets" in refused.stderr
