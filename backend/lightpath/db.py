"""Bulk writes through PostgreSQL's COPY, for imports of fleet-sized data sets.

COPY streams rows in one statement: about ten times faster than INSERT batches for the
100K-link fabric (see BENCHMARKS.md). It runs on the caller's connection, so it takes part
in the caller's transaction and rolls back with it.
"""

from collections.abc import Iterable, Sequence

from django.db import connection, models


def copy_rows(model: type[models.Model], field_names: Sequence[str], rows: Iterable[Sequence]) -> None:
    """COPY `rows` (tuples ordered as `field_names`) into the model's table.

    Fields not named must have a database default or be nullable; model-level defaults and
    validation are not applied, so callers pass validated, complete rows.
    """
    columns = ", ".join(connection.ops.quote_name(_column(model, name)) for name in field_names)
    table = connection.ops.quote_name(model._meta.db_table)
    with connection.cursor() as cursor, cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


def _column(model: type[models.Model], field_name: str) -> str:
    field = model._meta.get_field(field_name)
    if not isinstance(field, models.Field) or field.column is None:
        raise ValueError(f"{model.__name__}.{field_name} is not a concrete column")
    return field.column
