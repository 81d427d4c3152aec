"""CSV export of a list endpoint: `?format=csv` (or `Accept: text/csv`) answers every row the
filters match, not one page, in the list's ordering.

The rows are streamed: a server-side cursor (`QuerySet.iterator`) feeds the list serializer a
chunk at a time, so memory stays constant however many rows match. Columns are titled in words;
values are written as the page shows them (choices as their labels, numbers rounded, times ISO
UTC to the second).

`columns=<keys>` (comma-separated, or repeated) keeps the page's chosen columns in the page's
order: a key is the page's column key, and one page column may be several CSV columns (the A
end is its switch and its port). Without it, every column, as scripts expect."""

import csv
import datetime as dt
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from django.http import StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import ValidationError

CSV_MEDIA_TYPE = "text/csv"
FORMATS = ("json", "csv")


def decimals(places: int) -> Callable[[Any], str]:
    """A number with a fixed count of decimals (lengths, penalties)."""
    return lambda value: f"{float(value):.{places}f}"


def rounded(places: int) -> Callable[[Any], str]:
    """At most `places` decimals, none when whole: "390", "390.7" (lengths as the page writes them)."""

    def write(value: Any) -> str:
        text = f"{float(value):.{places}f}"
        return text.rstrip("0").rstrip(".") if "." in text else text

    return write


def percent(value: Any) -> str:
    """A fraction as the page's progress bar says it: 1.0 -> "100%"."""
    return f"{float(value) * 100:.0f}%"


def significant(digits: int) -> Callable[[Any], str]:
    """A number with `digits` significant digits (loss rates such as 1.23e-06)."""
    return lambda value: f"{float(value):.{digits}g}"


@dataclass(frozen=True)
class CsvColumn:
    title: str
    # A key of the list serializer's row; dotted for a nested object's ("forecast.crossing_at").
    field: str
    # How a number is written; None: as the serializer answers it.
    number: Callable[[Any], str] | None = None
    # Names of ids (a fabric's id -> its name), read once per export, when the page shows the name.
    names: Callable[[], Mapping[Any, str]] | None = None
    # What an empty value says ("no" where the page says no rather than leaving the cell blank).
    blank: str = ""
    # The page's column this one belongs to (`columns=`); the field's name when they agree.
    key: str = ""

    @property
    def column_key(self) -> str:
        return self.key or self.field.split(".")[0]


class _Line:
    """csv.writer's file: hands back the line it was given (Django's streaming CSV recipe)."""

    def write(self, value: str) -> str:
        return value


def wants_csv(accept_header: str) -> bool:
    return CSV_MEDIA_TYPE in (part.split(";")[0].strip() for part in accept_header.split(","))


def column_keys(columns: Iterable[CsvColumn]) -> list[str]:
    """The keys `columns=` accepts, in the declared order, each once."""
    return list(dict.fromkeys(column.column_key for column in columns))


def chosen_columns(columns: tuple[CsvColumn, ...], requested: list[str]) -> tuple[CsvColumn, ...]:
    """The columns of the requested keys, in the requested order (a key's own columns in their
    declared order); nothing requested: every column. An unknown key is a ValidationError naming
    every unknown key and the valid ones."""
    keys = list(dict.fromkeys(key.strip() for raw in requested for key in raw.split(",") if key.strip()))
    if not keys:
        return columns
    valid = column_keys(columns)
    unknown = [key for key in keys if key not in valid]
    if unknown:
        raise ValidationError(
            {"columns": [f"unknown column(s): {', '.join(unknown)}; the columns are: {', '.join(valid)}"]}
        )
    return tuple(column for key in keys for column in columns if column.column_key == key)


def _export_parameters(columns: tuple[CsvColumn, ...]) -> list[OpenApiParameter]:
    return [
        OpenApiParameter(
            "format",
            OpenApiTypes.STR,
            enum=FORMATS,
            description="csv: every matching row (not one page) as a CSV file, in this ordering; "
            "also with `Accept: text/csv`. Columns in words, values as the UI shows them.",
        ),
        OpenApiParameter(
            "columns",
            OpenApiTypes.STR,
            description="With format=csv: the columns to write, as comma-separated keys of the page's "
            "columns, in this order (the UI passes the columns shown on its page); an unknown key is a "
            "400 naming it and the valid keys. Without it, every column. "
            f"Keys: {', '.join(column_keys(columns))}.",
        ),
    ]


class CsvExportMixin:
    """For a list viewset: declare `csv_columns` (and `csv_name`, the file's stem)."""

    csv_columns: tuple[CsvColumn, ...]
    csv_name: str
    csv_chunk_rows = 1000

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        columns = cls.__dict__.get("csv_columns")
        if columns is None or "list" in cls.__dict__:
            return

        # A list of its own, so that its OpenAPI parameters name this list's column keys.
        def list_or_export(self, request, *args, **kwargs):
            return CsvExportMixin.list(self, request, *args, **kwargs)

        cls.list = extend_schema(parameters=_export_parameters(columns))(list_or_export)  # type: ignore[method-assign]

    def perform_content_negotiation(self, request, force=False):
        # No renderer speaks text/csv (the list answers it itself); errors then answer JSON.
        self.csv_accepted = wants_csv(request.META.get("HTTP_ACCEPT", ""))
        return super().perform_content_negotiation(request, force=force or self.csv_accepted)  # type: ignore[misc]

    def list(self, request, *args, **kwargs):
        problems: dict[str, Any] = {}
        fmt = request.query_params.get("format") or ("csv" if self.csv_accepted else "json")
        if fmt == "json":
            return super().list(request, *args, **kwargs)  # type: ignore[misc]
        if fmt != "csv":
            problems["format"] = [f"must be json or csv, not {fmt!r}"]
        columns = self.csv_columns
        try:
            columns = chosen_columns(self.csv_columns, request.query_params.getlist("columns"))
        except ValidationError as error:
            problems.update(error.detail)  # type: ignore[arg-type]
        try:
            queryset = self.filter_queryset(self.get_queryset())  # type: ignore[attr-defined]
        except ValidationError as error:
            if not isinstance(error.detail, dict):
                raise
            problems = {**error.detail, **problems}
        if problems:
            raise ValidationError(problems)
        response = StreamingHttpResponse(
            self._csv_lines(queryset, columns), content_type=f"{CSV_MEDIA_TYPE}; charset=utf-8"
        )
        response["Content-Disposition"] = f'attachment; filename="{self.csv_name}.csv"'
        return response

    def _csv_lines(self, queryset, columns: tuple[CsvColumn, ...]) -> Iterator[str]:
        writer = csv.writer(_Line(), lineterminator="\n")
        list_serializer = self.get_serializer(many=True)  # type: ignore[attr-defined]
        writers = [_value_writer(list_serializer.child, column) for column in columns]
        yield writer.writerow([column.title for column in columns])
        for chunk in _chunks(queryset.iterator(chunk_size=self.csv_chunk_rows), self.csv_chunk_rows):
            rows = self.get_serializer(chunk, many=True).data  # type: ignore[attr-defined]
            yield "".join(writer.writerow([write(row) for write in writers]) for row in rows)


def _chunks(items: Iterable, size: int) -> Iterator[list]:
    chunk: list = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _choice_text(field: serializers.ChoiceField, value: Any) -> str:
    """A choice as the page writes it: its label when the code names one ("kept for capacity"), else
    the code as a word ("succeeded", "up"), as the page's badges show it, not the label Django makes
    up from it ("Succeeded")."""
    label = str(field.choices.get(value, value))
    code = str(value)
    made_up = label == code.replace("_", " ").title()
    return code.replace("_", " ") if made_up else label


def _value_writer(serializer: serializers.Serializer, column: CsvColumn) -> Callable[[dict], str]:
    """Reads `column.field` of a serialized row and writes it as the page shows it."""
    path = column.field.split(".")
    field: Any = serializer
    for name in path:
        field = field.fields[name]
    names = column.names() if column.names is not None else None

    def write(row: dict) -> str:
        value: Any = row
        for name in path:
            value = value.get(name) if isinstance(value, dict) else None
        if value is None or value == "":
            return column.blank
        if names is not None:
            return names.get(value, str(value))
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(field, serializers.ChoiceField):
            return _choice_text(field, value)
        if isinstance(value, dt.datetime) or isinstance(field, serializers.DateTimeField):
            # A method field hands the datetime itself, a DateTimeField its ISO text: one format.
            moment = value if isinstance(value, dt.datetime) else dt.datetime.fromisoformat(value)
            return moment.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        if column.number is not None:
            return column.number(value)
        return str(value)

    return write
