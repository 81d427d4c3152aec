"""Numbers in the planners' CSV downloads (RAIL, ShareBackup, Larry) as the pages show them, without
the noise of binary arithmetic (3683.100000000002 becomes 3683.1): dollars to the cent, metres to the
centimetre, every other number to 10 significant digits, which drops the noise and keeps every digit
a planner typed or an instrument measured."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any

Table = tuple[Sequence[str], Iterable[Sequence[Any]]]
SIGNIFICANT = 10


def shown(column: str, value: Any) -> Any:
    """One cell as the page shows it; anything but a finite float passes as it is."""
    if not isinstance(value, float) or not math.isfinite(value):
        return value
    if column.endswith(("_usd", "_m")):
        return round(value, 2)
    return float(f"{value:.{SIGNIFICANT}g}")


def rounded(table: Callable[[dict], Table]) -> Callable[[dict], Table]:
    """A job kind's CSV table with every number as shown (wraps a `csv_tables` entry)."""

    def rows(result: dict) -> Table:
        header, body = table(result)
        return header, ([shown(column, value) for column, value in zip(header, row, strict=True)] for row in body)

    return rows
