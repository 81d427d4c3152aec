"""CORRUPTING.csv: per-link loss-rate fractions (corropt's corrupting links, rail's loss rates)."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from ..errors import CliError
from .fabric import Fabric
from .files import read_text

CORRUPTING_HEADER = ("link", "loss_rate")
CORRUPTING_HEADER_BOTH = ("link", "loss_rate", "loss_rate_down")


@dataclass
class Corrupting:
    link: int
    loss_rate: float
    line: int
    loss_rate_down: float = 0.0

    def engine_entry(self) -> tuple[int, float, float]:
        """(link, loss_rate_up, loss_rate_down) as the engine takes it."""
        return (self.link, self.loss_rate, self.loss_rate_down)


def read_corrupting(path: Path, fabric: Fabric) -> list[Corrupting]:
    """CORRUPTING.csv: one link (index or name) and its loss-rate fractions per row.

    Header `link,loss_rate` (one rate per link), or `link,loss_rate,loss_rate_down` with the upward
    direction (from the lower-tier switch to the upper-tier one) in loss_rate and the downward one in
    loss_rate_down (an empty cell is 0). The link's penalty is I(loss_rate) + I(loss_rate_down): for the
    log and step penalties that is not the penalty of the summed rate.
    """
    text = read_text(path)
    rows = csv.reader(io.StringIO(text))
    expected = "'link,loss_rate' or 'link,loss_rate,loss_rate_down'"
    try:
        header = next(rows, None)
        if header is None:
            raise CliError(f"{path}: empty file, expected the header {expected}")
        columns = tuple(cell.strip().lower() for cell in header)
        if columns not in (CORRUPTING_HEADER, CORRUPTING_HEADER_BOTH):
            raise CliError(f"{path} line 1: expected the header {expected}, got {','.join(header)!r}")
        result: list[Corrupting] = []
        seen: dict[int, int] = {}
        for row in rows:
            line = rows.line_num
            if not row or all(not cell.strip() for cell in row):
                continue
            if len(row) != len(columns):
                raise CliError(
                    f"{path} line {line}: expected {len(columns)} fields ({','.join(columns)}), got {len(row)}"
                )
            link_text = row[0].strip()
            index = fabric.resolve_link(link_text)
            if index is None:
                raise CliError(f"{path} line {line}: unknown link {link_text!r}")
            rate = _loss_rate(path, line, row[1].strip(), "loss rate")
            down = _loss_rate(path, line, row[2].strip(), "downward loss rate", empty=0.0) if len(row) > 2 else 0.0
            if index in seen:
                raise CliError(
                    f"{path} line {line}: link {fabric.link_names[index]!r} is already listed on line {seen[index]}"
                )
            seen[index] = line
            result.append(Corrupting(index, rate, line, down))
    except csv.Error as exc:
        raise CliError(f"{path} line {rows.line_num}: {exc}") from exc
    return result


def _loss_rate(path: Path, line: int, text: str, what: str, empty: float | None = None) -> float:
    if not text and empty is not None:
        return empty
    try:
        rate = float(text)
    except ValueError:
        raise CliError(f"{path} line {line}: {what} {text!r} is not a number") from None
    if not 0.0 <= rate <= 1.0:  # also rejects nan
        raise CliError(f"{path} line {line}: {what} {text} is not a fraction in [0, 1]")
    return rate
