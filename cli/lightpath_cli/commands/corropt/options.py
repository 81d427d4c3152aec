"""Options and checks shared by the corropt commands."""

from __future__ import annotations

import math
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from ...options import seed_option


class PenaltyName(StrEnum):
    linear = "linear"
    log = "log"
    step = "step"


def fraction_option(*names: str, help: str = "", metavar: str | None = None, hidden: bool = False) -> Any:
    """A fraction in [0, 1]; its help says the default, if any."""
    return typer.Option(*names, metavar=metavar, min=0.0, max=1.0, show_default=False, help=help, hidden=hidden)


def hours_option(*names: str, help: str = "", minimum: float | None = 0.0, hidden: bool = False) -> Any:
    """A number of hours; its help says the default, if any."""
    return typer.Option(*names, metavar="H", min=minimum, show_default=False, help=help, hidden=hidden)


def server_fabric_argument(what: str) -> Any:
    """FABRIC, the server mode of a command that also runs offline on a document."""
    return typer.Argument(metavar="FABRIC", show_default=False, help=f"A fabric on the server (name or id): {what}")


CORRUPTING_HELP = (
    "CSV with header link,loss_rate (fractions, 1e-6), or link,loss_rate,loss_rate_down to give the upward "
    "(lower-tier to upper-tier switch) and downward directions apart; a link's penalty is "
    "I(loss_rate) + I(loss_rate_down)."
)

StateOption = Annotated[
    Path | None,
    typer.Option(
        "--state",
        metavar="STATE.json",
        help='Link state overrides: {"links": {"<index or a:a_port-b:b_port>": "enabled|disabled|down"}}.',
    ),
]
CorruptingOption = Annotated[Path, typer.Option("--corrupting", metavar="CORRUPTING.csv", help=CORRUPTING_HELP)]
ConstraintOption = Annotated[
    float | None,
    fraction_option(
        "--constraint",
        metavar="C",
        help="The default ToR capacity constraint (share of its up-paths a ToR keeps) [default: the document's "
        "capacity_constraint, else 0.75].",
    ),
]
# --capacity: the old offline spelling of --constraint, hidden (kept so existing scripts work).
CapacityAliasOption = Annotated[float | None, fraction_option("--capacity", hidden=True)]
PenaltyOption = Annotated[
    PenaltyName,
    typer.Option("--penalty", case_sensitive=False, help="I(f): linear = f, log = log10(1 + f/1e-8), step = bucket."),
]

SeedOption = Annotated[int, seed_option("Random seed; the same seed gives the same answer.")]


def finite(value: float | None, option: str) -> None:
    if value is not None and not math.isfinite(value):
        raise typer.BadParameter(f"{value} is not a finite number", param_hint=f"'{option}'")
