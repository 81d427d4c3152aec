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


def upsert_rows(table: str, columns: Sequence[str], conflict_columns: Sequence[str], rows: Iterable[Sequence]) -> int:
    """Insert `rows` into `table`, updating the other columns of rows whose `conflict_columns`
    already exist (a unique constraint must cover them). COPY into a temporary table first, so
    a fleet-sized batch is one statement. Returns the number of rows written."""
    return _through_temp(
        table,
        columns,
        rows,
        lambda tmp, cols: (
            f"INSERT INTO {table} ({cols}) SELECT {cols} FROM {tmp} "
            f"ON CONFLICT ({', '.join(conflict_columns)}) DO UPDATE SET "
            + ", ".join(f"{c} = EXCLUDED.{c}" for c in columns if c not in conflict_columns)
        ),
    )


def update_rows(table: str, key_columns: Sequence[str], columns: Sequence[str], rows: Iterable[Sequence]) -> int:
    """UPDATE `columns` of the rows of `table` matched by `key_columns`; each row of `rows`
    holds the key values followed by the new values. Returns the number of rows updated."""
    all_columns = [*key_columns, *columns]
    return _through_temp(
        table,
        all_columns,
        rows,
        lambda tmp, cols: (
            f"UPDATE {table} AS t SET "
            + ", ".join(f"{c} = s.{c}" for c in columns)
            + f" FROM {tmp} AS s WHERE "
            + " AND ".join(f"t.{k} = s.{k}" for k in key_columns)
        ),
    )


def _through_temp(table: str, columns: Sequence[str], rows: Iterable[Sequence], statement) -> int:
    cols = ", ".join(columns)
    tmp = f"tmp_{table}"
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {tmp}")
        cursor.execute(f"CREATE TEMP TABLE {tmp} AS SELECT {cols} FROM {table} WITH NO DATA")
        with cursor.cursor.copy(f"COPY {tmp} ({cols}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        cursor.execute(statement(tmp, cols))
        count = cursor.rowcount
        cursor.execute(f"DROP TABLE {tmp}")
    return count
