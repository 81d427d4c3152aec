"""Parsers of the telemetry ingest formats into canonical samples (docs/telemetry.md, "Formats").

Pure Python, no Django: the ingest service calls `parse`, and the CLI or a script may too. Parsing
checks syntax only; ranges, no-light values, lane averages and whether a switch and port exist are
the service's business.
"""

from __future__ import annotations

from datetime import datetime

from ._batch import parse_csv, parse_json
from ._common import FIELDS, OPER_STATUS_NAMES, OPER_STATUSES, Bad, FormatError, Parsed, collection_paused, to_utc
from ._common import parse_time as _parse_time
from ._gnmi import parse_gnmi
from ._prometheus import parse_prometheus
from ._remote_write import MEDIA_TYPE as REMOTE_WRITE_MEDIA_TYPE
from ._remote_write import parse_remote_write as _parse_remote_write

__all__ = [
    "FIELDS",
    "MEDIA_TYPES",
    "OPER_STATUSES",
    "OPER_STATUS_NAMES",
    "REMOTE_WRITE_MEDIA_TYPE",
    "FormatError",
    "Parsed",
    "parse",
    "parse_remote_write",
    "parse_time",
]

MEDIA_TYPES: dict[str, str] = {
    "json": "application/json",
    "csv": "text/csv",
    "openconfig": "application/vnd.lightpath.gnmi+json",
    "prometheus": "text/plain; version=0.0.4",
}
# Content-Type without its parameters (charset, version) -> format name.
_BY_ESSENCE = {media_type.split(";")[0]: name for name, media_type in MEDIA_TYPES.items()}


def format_of(media_type: str) -> str:
    """The format name of a Content-Type (parameters ignored) or of a format name itself."""
    essence = media_type.split(";")[0].strip().lower()
    if essence in MEDIA_TYPES:
        return essence
    name = _BY_ESSENCE.get(essence)
    if name is None:
        supported = ", ".join(MEDIA_TYPES.values())
        raise FormatError(f"unsupported Content-Type {media_type!r}: use one of {supported}")
    return name


def parse(media_type: str, body: bytes, *, default_time: datetime | None = None) -> Parsed:
    """Parse a request body of the given Content-Type (or format name) into canonical samples.

    `default_time` is the time of Prometheus lines without a timestamp (ignored by other formats).
    Raises FormatError when the body as a whole is unusable; problems of single samples are in
    `Parsed.errors`, every one of them.
    """
    name = format_of(media_type)
    if default_time is not None:
        default_time = to_utc(default_time)
    body = bytes(body)
    if body.startswith(b"\xef\xbb\xbf"):  # a UTF-8 byte-order mark, as spreadsheet programs write
        body = body[3:]
    with collection_paused():
        if name == "json":
            return parse_json(body)  # the JSON parser checks UTF-8 itself
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = body[: exc.start].count(b"\n") + 1
            raise FormatError(f"line {line}: the body is not UTF-8 (byte {exc.start})") from None
        if name == "csv":
            return parse_csv(text)
        if name == "openconfig":
            return parse_gnmi(text)
        return parse_prometheus(text, default_time)


def parse_remote_write(body: bytes, *, max_bytes: int) -> Parsed:
    """A Prometheus remote-write body (snappy-compressed protobuf WriteRequest) as canonical
    samples, by the text format's metric mapping; errors are located by `series` (the position of
    the time series in the request). Raises FormatError when the body is not such a request."""
    with collection_paused():
        return _parse_remote_write(bytes(body), max_bytes=max_bytes)


def parse_time(value: str | int | float) -> datetime:
    """A time as the formats take it (ISO 8601 with an offset, or Unix seconds), in UTC.

    Raises ValueError with a reason (for `?time=` and the CLI's `--time`).
    """
    try:
        return _parse_time(value)
    except Bad as bad:
        raise ValueError(bad.reason) from None
