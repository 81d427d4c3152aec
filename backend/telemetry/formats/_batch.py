"""The two formats with one sample per item: our JSON batch and CSV."""

from __future__ import annotations

import csv
import io
from typing import Any

from ._common import (
    COUNTER,
    COUNTER_MAX,
    FLOAT,
    KINDS,
    NAME,
    OPER,
    POWER,
    REQUIRED,
    TIME,
    Bad,
    FormatError,
    Parsed,
    check_name,
    counter_from_json,
    error,
    float_from_json,
    lanes_from_json,
    lanes_from_text,
    load_json,
    number_from_text,
    oper_status,
    parse_time,
    show,
    unknown_field_reason,
)


def parse_json(body: bytes) -> Parsed:
    document = load_json(body)
    if type(document) is not dict:
        raise FormatError('the body must be a JSON object {"fabric": ..., "samples": [...]}')
    extra = sorted(set(document) - {"fabric", "samples"})
    if extra:
        raise FormatError(f"unknown top-level key {show(extra[0])} (expected fabric and samples)")
    fabric = document.get("fabric")
    if fabric is not None and (type(fabric) is not str or not fabric):
        raise FormatError(f"fabric: {show(fabric)} is not a non-empty string")
    items = document.get("samples")
    if type(items) is not list:
        raise FormatError('"samples" must be a list of samples' if items is not None else '"samples" is missing')

    parsed = Parsed(fabric=fabric)
    samples, where, errors = parsed.samples, parsed.where, parsed.errors
    times: dict[str, Any] = {}  # a batch repeats a handful of time strings thousands of times
    for index, sample in enumerate(items):
        if type(sample) is not dict:
            errors.append(error(index, None, f"sample {index} is {show(sample)}, not an object"))
            continue
        ok = True
        nulls = None
        for key, value in sample.items():
            kind = KINDS.get(key)
            try:
                if kind == COUNTER:
                    if type(value) is not int or value < 0 or value > COUNTER_MAX:
                        if value is None:
                            nulls = [*(nulls or ()), key]
                        else:
                            counter_from_json(value)
                elif kind in (POWER, FLOAT):
                    if type(value) is not float or value - value != 0:
                        if value is None:
                            nulls = [*(nulls or ()), key]
                        else:
                            sample[key] = float_from_json(value, kind)
                elif kind == TIME:
                    moment = times.get(value) if type(value) is str else None
                    if moment is None:
                        moment = parse_time(value)
                        if type(value) is str:
                            times[value] = moment
                    sample[key] = moment
                elif kind == NAME:
                    check_name(value)
                elif kind == OPER:
                    if value is None:
                        nulls = [*(nulls or ()), key]
                    else:
                        sample[key] = oper_status(value)
                elif kind is None:
                    raise Bad(unknown_field_reason(key))
                elif value is None:
                    nulls = [*(nulls or ()), key]
                elif type(value) is not list or set(map(type, value)) != _FLOATS or not _finite(value):
                    sample[key] = lanes_from_json(value, kind)
            except Bad as bad:
                ok = False
                errors.append(error(index, key, bad.reason))
        for key in REQUIRED:
            if key not in sample:
                ok = False
                errors.append(error(index, key, "missing (required)"))
        if ok:
            if nulls:  # null means not measured, as an empty CSV cell does
                for key in nulls:
                    del sample[key]
            samples.append(sample)
            where.append({"index": index})
    return parsed


_FLOATS = {float}


def _finite(values: list[float]) -> bool:
    total = sum(values)  # inf or NaN anywhere makes the sum inf or NaN
    return total - total == 0


def parse_csv(text: str) -> Parsed:
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader, None)
        while header is not None and not "".join(header).strip():  # blank lines before the header
            header = next(reader, None)
    except csv.Error as exc:
        raise FormatError(f"line {reader.line_num}: {exc}") from None
    if header is None:
        raise FormatError("the CSV body is empty: a header line of field names is needed")
    header_line = reader.line_num
    columns = [name.strip() for name in header]
    for name in columns:
        if name not in KINDS:
            raise FormatError(f"line {header_line}: unknown column {show(name)} ({unknown_field_reason(name)})")
    seen = set()
    for name in columns:
        if name in seen:
            raise FormatError(f"line {header_line}: column {show(name)} appears twice")
        seen.add(name)
    missing = [name for name in REQUIRED if name not in seen]
    if missing:
        raise FormatError(f"line {header_line}: the header lacks the required column(s) {', '.join(missing)}")
    width = len(columns)

    # Column by column: each conversion runs over a whole column in one comprehension, and only a
    # column with a bad or unusual cell is read again cell by cell to say which and why.
    rows: list[list[str]] = []
    lines: list[int] = []
    parsed = Parsed()
    errors = parsed.errors
    last_line = header_line
    index = -1
    try:
        for row in reader:
            line = last_line + 1  # a quoted cell may span lines: the row starts after the previous one
            last_line = reader.line_num
            if len(row) != width:
                if len(row) <= 1 and not "".join(row).strip():
                    continue  # a blank line
                index += 1
                reason = f"line {line} has {len(row)} cells, the header has {width}"
                errors.append(error(index, None, reason, line=line))
                row = [""] * width  # keeps its index; dropped below
            else:
                index += 1
            rows.append(row)
            lines.append(line)
    except csv.Error as exc:
        raise FormatError(f"line {reader.line_num}: {exc}") from None
    if not rows:
        return parsed

    bad_rows: set[int] = {e["index"] for e in errors}
    misshapen = set(bad_rows)  # their cells mean nothing: no more errors about them
    cell_errors: list[tuple[int, int, dict[str, Any]]] = []
    times: dict[str, Any] = {}
    converted = []
    for column, (name, cells) in enumerate(zip(columns, zip(*rows, strict=True), strict=True)):
        kind = KINDS[name]
        if misshapen:
            cells = tuple("" if i in misshapen else cell for i, cell in enumerate(cells))
        values = _column(cells, kind, times)
        if values is None:  # the slow path: cell by cell, every problem reported
            values = []
            for row_index, cell in enumerate(cells):
                try:
                    values.append(_cell(cell, kind, times))
                except Bad as bad:
                    values.append(None)
                    cell_errors.append((row_index, column, error(row_index, name, bad.reason, line=lines[row_index])))
        if name in REQUIRED:
            for row_index, value in enumerate(values):
                if value is None and not cells[row_index].strip() and row_index not in misshapen:
                    cell_errors.append(
                        (row_index, column, error(row_index, name, "missing (required)", line=lines[row_index]))
                    )
        converted.append(values)
    for row_index, _, entry in sorted(cell_errors, key=lambda item: (item[0], item[1])):
        bad_rows.add(row_index)
        errors.append(entry)
    errors.sort(key=lambda e: e["index"])  # stable: a row's cell errors stay in column order

    samples, where = parsed.samples, parsed.where
    for row_index, row_values in enumerate(zip(*converted, strict=True)):
        if row_index in bad_rows:
            continue
        samples.append({name: value for name, value in zip(columns, row_values, strict=True) if value is not None})
        where.append({"index": row_index, "line": lines[row_index]})
    return parsed


def _column(cells: tuple[str, ...], kind: int, times: dict[str, Any]) -> list[Any] | None:
    """A whole column converted, empty cells as None; None when any cell needs the careful path."""
    joined = "".join(cells)
    try:
        if kind == COUNTER:
            if joined and not (joined.isdigit() and joined.isascii()):
                return None
            values = [int(cell) if cell else None for cell in cells]
            if max((v for v in values if v is not None), default=0) > COUNTER_MAX:
                return None
            return values
        if kind == OPER:
            return [oper_status(cell) if cell else None for cell in cells]
        if "_" in joined:  # float() would read 1_0 as 10
            return None
        if kind in (POWER, FLOAT):
            floats = [float(cell) if cell else None for cell in cells]
            return floats if _finite([v for v in floats if v is not None]) else None
        if kind == TIME:
            return [(times.get(cell) or _time(cell, times)) if cell else None for cell in cells]
        if kind == NAME:
            if "\x00" in joined:
                return None
            return [cell.strip() or None for cell in cells]
        lanes = [list(map(float, cell.split(";"))) if cell else None for cell in cells]
        return lanes if _finite([sum(v) for v in lanes if v is not None]) else None
    except (ValueError, Bad):
        return None


def _time(cell: str, times: dict[str, Any]) -> Any:
    moment = times[cell] = parse_time(cell)
    return moment


def _cell(cell: str, kind: int, times: dict[str, Any]) -> Any:
    """One cell, or Bad with the reason. A blank cell is not measured (None)."""
    if not cell.strip():
        return None
    if kind == TIME:
        return times.get(cell) or _time(cell, times)
    if kind == NAME:
        return check_name(cell.strip())
    if kind == OPER:
        return oper_status(cell)
    if kind in (COUNTER, POWER, FLOAT):
        return number_from_text(cell, kind)
    return lanes_from_text(cell, kind)
