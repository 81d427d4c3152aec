"""A stored rail.plan served in pieces (docs/rail.md, "Large plans"): its summary without the per-link
rows, and those rows a page at a time, filtered and sorted in PostgreSQL from the job's jsonb result.

A 100K-link plan's result is 23 MB of JSON, nine tenths of it per-link rows; the plan page needs
the summary at once and 50 rows at a time. PostgreSQL drops or slices the rows without Python ever
parsing them: the summary costs 0.1 s and a page 0.2-0.3 s on the 100K-link plan."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.db import connection
from rest_framework.exceptions import NotFound

from jobs.models import Job
from lightpath.problems import Problems, query_bool, query_whole

PLAN_KIND = "rail.plan"
DEFAULT_LIMIT = 50
MAX_LIMIT = 1000
# Sortable row fields and how PostgreSQL reads them from a row (`row` is one jsonb element).
ORDERINGS = {
    "link": "(row->>'link')::bigint",
    "name": "row->>'name'",
    "length_m": "(row->>'length_m')::float8",
    "speed_gbps": "(row->>'speed_gbps')::float8",
    "baseline": "row->>'baseline'",
    "plan": "row->>'plan'",
    "stretched": "(row->>'stretched')::boolean",
    "p_good": "(row->>'p_good')::float8",
    "baseline_usd": "(row->>'baseline_usd')::float8",
    "plan_usd": "(row->>'plan_usd')::float8",
}


def plan_job(job_id: int, *, with_result: bool) -> Job:
    """The rail.plan job, without reading its result column unless asked; 404 for another kind."""
    queryset = Job.objects.select_related("created_by").defer("params")
    if not with_result:
        queryset = queryset.defer("result")
    job = queryset.filter(pk=job_id, kind=PLAN_KIND).first()
    if job is None:
        raise NotFound(f"no {PLAN_KIND} job {job_id}")
    return job


def summary(job: Job) -> dict[str, Any] | None:
    """The stored result without its `links` rows, plus `link_rows`: how many there are, the longest
    link and every part they use (the page's savings marker and part filter); None before the result."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT (job.result - 'links')::text, jsonb_typeof(job.result->'links') = 'array',
                   stats.count, stats.longest, stats.baselines, stats.plans
              FROM {Job._meta.db_table} AS job,
                   LATERAL (SELECT count(*) AS count, max((row->>'length_m')::float8) AS longest,
                                   array_agg(DISTINCT row->>'baseline') AS baselines,
                                   array_agg(DISTINCT row->>'plan') AS plans
                              FROM jsonb_array_elements(
                                       CASE jsonb_typeof(job.result->'links') WHEN 'array'
                                       THEN job.result->'links' ELSE '[]' END) AS rows(row)) AS stats
             WHERE job.id = %s AND job.result IS NOT NULL
            """,  # noqa: S608 - fixed table name and clauses; values go as parameters
            [job.pk],
        )
        found = cursor.fetchone()
    if found is None:
        return None
    text, has_rows, count, longest, baselines, plans = found
    result = json.loads(text)
    if not has_rows:  # a failed job's {"errors": [...]}
        return result
    parts = sorted({*(baselines or []), *(plans or [])} - {None})
    result["link_rows"] = {"count": count, "longest_m": longest, "parts": parts}
    return result


def links_page(job: Job, query: Mapping[str, str]) -> dict[str, Any]:
    """One page of the plan's per-link rows: ?stretched=true|false, ?part= (the baseline's or the
    plan's part), ?q= (in the link name, any case), ?ordering=[-]field, ?limit=, ?offset=.
    A ValidationError (400) lists every problem of the query."""
    filters, ordering, limit, offset = _parse(query)
    where = ["job.id = %s"]
    args: list[Any] = [job.pk]
    if filters.get("stretched") is not None:
        where.append("(row->>'stretched')::boolean = %s")
        args.append(filters["stretched"])
    if filters.get("part"):
        where.append("(row->>'baseline' = %s OR row->>'plan' = %s)")
        args += [filters["part"], filters["part"]]
    if filters.get("q"):
        where.append("strpos(lower(row->>'name'), lower(%s)) > 0")
        args.append(filters["q"])
    descending = ordering.startswith("-")
    field = ordering.lstrip("-")
    order = f"{ORDERINGS[field]} {'DESC' if descending else 'ASC'}, position" if field else "position"
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT total, row::text FROM (
                SELECT count(*) OVER () AS total, row, position
                  FROM {Job._meta.db_table} AS job,
                       jsonb_array_elements(job.result->'links') WITH ORDINALITY AS rows(row, position)
                 WHERE {" AND ".join(where)}
                 ORDER BY {order}
                 LIMIT %s OFFSET %s
            ) AS page  -- only the page's rows become text
            ORDER BY {order}
            """,  # noqa: S608 - fixed table name and clauses; values go as parameters
            [*args, limit, offset],
        )
        found = cursor.fetchall()
    total = found[0][0] if found else _count(job, where, args) if offset else 0
    return {"count": total, "results": [json.loads(text) for _, text in found]}


def _count(job: Job, where: list[str], args: list[Any]) -> int:
    """The rows matching when the page is past the last one (a window count needs a row)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT count(*)
              FROM {Job._meta.db_table} AS job, jsonb_array_elements(job.result->'links') AS rows(row)
             WHERE {" AND ".join(where)}
            """,  # noqa: S608 - fixed table name and clauses; values go as parameters
            args,
        )
        return int(cursor.fetchone()[0])


def _parse(query: Mapping[str, str]) -> tuple[dict[str, Any], str, int, int]:
    problems = Problems()
    filters: dict[str, Any] = {"part": query.get("part", ""), "q": query.get("q", "").strip()}
    for name in ("part", "q"):
        if "\x00" in filters[name]:  # PostgreSQL text cannot hold it
            problems.add(name, "must not contain a NUL character")
    stretched = query_bool(problems, query, "stretched")
    if stretched is not None:
        filters["stretched"] = stretched
    ordering = query.get("ordering", "").strip()
    if ordering and ordering.lstrip("-") not in ORDERINGS:
        problems.add("ordering", f"must be one of {', '.join(ORDERINGS)}, optionally with a leading '-'")
    limit = query_whole(problems, query, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT)
    offset = query_whole(problems, query, "offset", 0, 0)
    problems.raise_validation_error()
    return filters, ordering, limit, offset
