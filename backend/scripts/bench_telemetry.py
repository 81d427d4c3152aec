"""Benchmarks of the telemetry pipeline: ingest from a file to committed rows, and chart reads.

1. Ingest: three polls of every link end of the 100K-link Facebook-style fabric (200K ends)
   written as CSV files, each pushed through the service behind POST /api/telemetry/ (parse,
   validate, COPY and merge into the partitioned table) in batches of 100,000 samples; then
   the derivation run the worker does after it (windows, rates, health, events, classes), here
   in-process so that it is timed alone. Polls 2 and 3 complete a window at every end.
   `--oper-status` adds an oper_status column ("up" at every end), so derivation also decides
   every link's operational state (docs/telemetry.md, "Operational state").
2. Forecasting (`--forecasting`, issue #19): the cost of the optical trends and forecasts in
   steady-state derivation. Two copies of the fabric, one derived with trends (TELEMETRY_TRENDS on)
   and one without, take the same polls (counters and optics at every end) 5 minutes of sample
   time apart, each poll ingested and derived for one copy and then the other, back to back.
   The copy with trends starts from a fabric that has run for days: its first run restores a
   checkpoint holding 4 days of hourly optics at every end (full 16-bucket rings), built with
   `apply_readings` as derivation would have built it. Polls 5 minutes apart close the 6-hour
   buckets of the ~1/72 of the links whose staggered phase falls in each run's 5 minutes, as a
   live fabric polled every 5 minutes does, and those links get their forecast anew.
3. Chart: a 7-day raw read of one link (GET /api/links/{id}/telemetry/) on a fabric of
   LINKS links whose raw table holds DAYS full days at the real poll rates (counters every
   15 min, optical power every 5 min), with a year of daily partitions present.

Usage, from the repository root with the dev stack's environment (make bench runs it):

    eval "$(backend/scripts/devstack.sh env)"; .venv/bin/python backend/scripts/bench_telemetry.py [--links 10000] [--days 8]
    LIGHTPATH_DB_NAME=lp_bench .venv/bin/python backend/scripts/bench_telemetry.py --forecasting --skip-ingest --skip-chart

It creates fabrics named bench-telemetry-* and removes them (and their samples) at the end.
Filling the chart's raw table takes a while: `--skip-ingest --keep` leaves the chart fabric and
its samples in place, and the next `--keep` run reuses them while they still cover the last 7
days. Point LIGHTPATH_DB_NAME at a database of its own (migrated) to keep them out of the dev data.
"""

import argparse
import csv
import datetime as dt
import io
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

BACKEND = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(BACKEND))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lightpath.settings")
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver")

import django  # noqa: E402

django.setup()

import numpy as np  # noqa: E402
from django import db  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.models import Sum  # noqa: E402
from django.db.models.functions import Length  # noqa: E402
from django.test import Client  # noqa: E402
from django.utils import timezone  # noqa: E402

from fabric import services as fabric_services  # noqa: E402
from fabric.models import Fabric, Link  # noqa: E402
from lightpath_fixtures.generators import fb_fabric  # noqa: E402
from telemetry import formats  # noqa: E402
from telemetry.models import Checkpoint, Derivation, TrendSegment  # noqa: E402
from telemetry.services import derivation, endpoints, partitions  # noqa: E402
from telemetry.services.ingest import ingest  # noqa: E402

BATCH = 100_000
HEADER = ["time", "switch", "port", "input_power_dbm", "output_power_dbm", "laser_bias_current_ma",
          "temperature_c", "in_pkts", "in_fcs_errors", "in_discards", "out_pkts", "out_discards"]  # fmt: skip


def ends_of(fabric: Fabric) -> list[tuple[str, str]]:
    ends = []
    for a_name, a_port, z_name, z_port in Link.objects.filter(fabric=fabric).values_list(
        "a_switch__name", "a_port", "z_switch__name", "z_port"
    ):
        ends.append((a_name, a_port))
        ends.append((z_name, z_port))
    return ends


def poll_csv(
    ends: list[tuple[str, str]], when: dt.datetime, poll: int, rng: random.Random, oper_status: bool = False
) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([*HEADER, "oper_status"] if oper_status else HEADER)
    status = ["up"] if oper_status else []
    stamp = when.isoformat().replace("+00:00", "Z")
    for i, (switch, port) in enumerate(ends):
        pkts = (poll * 50_000_000) + i
        fcs = poll * 80 if i % 1000 == 7 else 0  # one end in a thousand corrupts at ~1.6e-6
        writer.writerow([stamp, switch, port, f"{-2.0 - rng.random():.2f}", f"{-1.0 - rng.random() / 5:.2f}", "6.5",
                         "41.0", pkts, fcs, 0, pkts, poll * (i % 3), *status])  # fmt: skip
    return out.getvalue().encode()


def cpu_seconds() -> float:
    """CPU time of this process and of its PostgreSQL backend so far. Other sessions share the
    2 cores, so wall time depends on them; the pipeline's own CPU time does not."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    server = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
    return time.process_time() + server


def split_csv(data: bytes, batch: int) -> list[bytes]:
    """CSV bodies of `batch` samples each, every one with the header line (as a collector posts them)."""
    header, _, rows = data.partition(b"\n")
    lines = rows.splitlines(keepends=True)
    return [header + b"\n" + b"".join(lines[i : i + batch]) for i in range(0, len(lines), batch)]


def parse_and_ingest(job: tuple[Fabric, bytes]) -> tuple[int, float]:
    """One API request's work in a pool process: parse a body and ingest it. Returns the samples
    and the CPU seconds of the process and its database backend."""
    fabric, body = job
    c0 = cpu_seconds()
    parsed = formats.parse("text/csv", body)
    ingest(fabric, parsed.samples)
    return len(parsed.samples), cpu_seconds() - c0


def bench_ingest(pods: int, processes: int = 1, oper_status: bool = False) -> None:
    name = f"bench-telemetry-fb-{pods}"
    Fabric.objects.filter(name=name).delete()
    fabric = fabric_services.import_document(fb_fabric(pods, name=name, seed=1))
    pool = None
    # The worker would derive after each commit; here the same run is timed in-process instead.
    queue = derivation.queue_after_commit
    derivation.queue_after_commit = lambda fabric_id: None
    try:
        ends = ends_of(fabric)
        rng = random.Random(1)
        start = (timezone.now() - dt.timedelta(hours=1)).replace(second=0, microsecond=0)
        print(f"\nIngest: {len(ends):,} link ends of a {pods}-pod fabric, batches of {BATCH:,} samples"
              f"{', every sample with oper_status' if oper_status else ''}")  # fmt: skip
        print("Wall time, and in brackets CPU time of this process and its database backend (samples per CPU second).")
        print("| poll | samples | read + parse | validate + store | write path samples/s | derivation | "
              "derivation samples/s | windows | events |")  # fmt: skip
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        if processes > 1:
            # Like API workers that a collector posts batches to in parallel: each parses its body
            # while another writes (ingests of one fabric still commit one at a time, under its
            # lock). The processes fork with the fabric's end index built, as a running worker has it.
            endpoints.end_index(fabric.pk)
            db.connections.close_all()
            pool = multiprocessing.get_context("fork").Pool(processes)
            print(f"{processes} processes, each parsing and ingesting whole {BATCH:,}-sample CSV bodies")
        folder = Path(tempfile.mkdtemp(prefix="bench-telemetry-"))
        for poll in range(3):
            body = poll_csv(ends, start + dt.timedelta(minutes=15 * poll), poll, rng, oper_status)
            path = folder / f"poll{poll}.csv"
            path.write_bytes(body)
            c0, t0 = cpu_seconds(), time.perf_counter()
            data = path.read_bytes()
            pool_cpu = 0.0  # CPU of the pool processes and their backends, in the write path's column
            if pool is None:
                parsed = formats.parse("text/csv", data)
                n = len(parsed.samples)
                c1, t1 = cpu_seconds(), time.perf_counter()
                for offset in range(0, n, BATCH):
                    ingest(fabric, parsed.samples[offset : offset + BATCH])
            else:  # each pool process parses and ingests whole bodies; read + parse is then the split
                bodies = split_csv(data, BATCH)
                c1, t1 = cpu_seconds(), time.perf_counter()
                done = pool.map(parse_and_ingest, [(fabric, body) for body in bodies], chunksize=1)
                n = sum(samples for samples, _ in done)
                pool_cpu = sum(cpu for _, cpu in done)
            c2, t2 = cpu_seconds() + pool_cpu, time.perf_counter()
            derived = derivation.derive(fabric)
            c3, t3 = cpu_seconds() + pool_cpu, time.perf_counter()
            print(f"| {poll + 1} | {n:,} | {t1 - t0:.2f} s ({c1 - c0:.2f}) | {t2 - t1:.2f} s ({c2 - c1:.2f}) | "
                  f"{n / (t2 - t0):,.0f} ({n / (c2 - c0):,.0f}) | "
                  f"{t3 - t2:.2f} s ({c3 - c2:.2f}){' state built' if derived.rebuilt else ''} | "
                  f"{derived.samples / (t3 - t2):,.0f} ({derived.samples / (c3 - c2):,.0f}) | "
                  f"{derived.windows:,} | {len(derived.events_opened)} |", flush=True)  # fmt: skip
            path.unlink()
        folder.rmdir()
        # A worker that lost its state restores it from the fabric's checkpoint before its next run.
        derivation.forget_cached_state()
        c0, t0 = cpu_seconds(), time.perf_counter()
        progress = Derivation.objects.get(fabric=fabric)
        derivation.restore(fabric, progress.watermark)
        size = Checkpoint.objects.filter(fabric=fabric).annotate(size=Length("data")).values_list("size", flat=True)
        print(f"\nRestoring the derivation state of {len(ends):,} ends from its checkpoint ({size.get() / 1e6:.1f} MB): "
              f"{time.perf_counter() - t0:.2f} s ({cpu_seconds() - c0:.2f} s CPU)")  # fmt: skip
    finally:
        if pool is not None:
            pool.close()
        derivation.queue_after_commit = queue
        fabric_services.delete_fabric(fabric)


HOUR_US = 3_600_000_000
HISTORY_HOURS = 96  # 4 days: the 16 six-hour buckets of a full trend window
HISTORY_ENDS = 20_000  # ends per apply_readings call while building the history


def trend_history(fabric: Fabric, before: dt.datetime) -> tuple[bytes, float, float]:
    """The fabric's derivation state after 4 days of hourly optics at every end, ending an hour
    before `before` (its checkpoint bytes, and the build's wall and CPU seconds): each end's Rx,
    Tx, bias and temperature as the polls have them (one lane), so every end holds a full ring."""
    links = np.array(Link.objects.filter(fabric=fabric).order_by("id").values_list("id", flat=True), dtype="<i8")
    ends_link = np.repeat(links, 2)
    ends_side = np.tile(np.array([0, 1], dtype="<u1"), len(links))
    first_us = int(before.timestamp() * 1_000_000) - HISTORY_HOURS * HOUR_US
    hours = np.arange(HISTORY_HOURS, dtype="<i8") * HOUR_US + first_us
    state = derivation._new_state(derivation._settings(fabric))
    rng = np.random.default_rng(1)
    t0, c0 = time.perf_counter(), time.process_time()
    for start in range(0, len(ends_link), HISTORY_ENDS):
        link = ends_link[start : start + HISTORY_ENDS]
        n = len(link) * HISTORY_HOURS
        # End after end, each end's hours in time order (as storage reads them back).
        state.apply_readings(
            np.repeat(link, HISTORY_HOURS).tobytes(),
            np.repeat(ends_side[start : start + HISTORY_ENDS], HISTORY_HOURS).tobytes(),
            np.tile(hours, len(link)).tobytes(),
            1,
            (-2.0 - rng.random(n)).round(2).astype("<f8").tobytes(),
            (-1.0 - rng.random(n) / 5).round(2).astype("<f8").tobytes(),
            np.full(n, 6.5, dtype="<f8").tobytes(),
            np.full(n, 41.0, dtype="<f8").tobytes(),
        )
    return state.checkpoint(), time.perf_counter() - t0, time.process_time() - c0


def checkpoint_bytes(fabric: Fabric) -> int:
    return Checkpoint.objects.filter(fabric=fabric).annotate(size=Length("data")).values_list("size", flat=True).get()


def segment_bytes(fabric: Fabric) -> int:
    return TrendSegment.objects.filter(fabric=fabric).aggregate(size=Sum(Length("data")))["size"] or 0


# Derivation's phases, timed in CPU seconds (process and backend) by wrapping its steps in place.
PHASES = {"apply": "_apply", "ends": "_write_ends", "directions": "_write_directions", "links": "_write_links",
          "checkpoint": "_write_checkpoint"}  # fmt: skip


def time_phases() -> tuple[dict[str, float], Callable[[], None]]:
    """Wrap derivation's steps (and forecasts.write) so that each call adds its CPU seconds to the
    returned dict; the callable undoes the wrapping."""
    spent: dict[str, float] = {}
    originals = {name: getattr(derivation, attr) for name, attr in PHASES.items()}
    write = derivation.forecasts.write

    def timed(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            c0 = cpu_seconds()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[name] = spent.get(name, 0.0) + cpu_seconds() - c0

        return run

    for name, attr in PHASES.items():
        setattr(derivation, attr, timed(name, originals[name]))
    derivation.forecasts.write = timed("forecasts", write)

    def undo() -> None:
        for name, attr in PHASES.items():
            setattr(derivation, attr, originals[name])
        derivation.forecasts.write = write

    return spent, undo


def bench_forecasting(pods: int, polls: int, warmup: int) -> None:
    """Steady-state derivation with and without trends and forecasts (issue #19's cost target)."""
    fabrics: dict[bool, Fabric] = {}
    spent, untime = time_phases()
    queue, trends_setting = derivation.queue_after_commit, settings.TELEMETRY_TRENDS
    derivation.queue_after_commit = lambda fabric_id: None  # each run is timed in-process instead
    derivation.forget_cached_state()
    try:
        for trends in (True, False):
            name = f"bench-telemetry-forecast-{'on' if trends else 'off'}-{pods}"
            Fabric.objects.filter(name=name).delete()
            fabrics[trends] = fabric_services.import_document(fb_fabric(pods, name=name, seed=1))
        ends = ends_of(fabrics[True])
        assert ends == ends_of(fabrics[False])
        start = (timezone.now() - dt.timedelta(minutes=5 * (warmup + polls) + 10)).replace(second=0, microsecond=0)
        settings.TELEMETRY_TRENDS = True
        history, wall, cpu = trend_history(fabrics[True], start)
        # Stored whole, as derivation stored it before the trend segments (a version 3 checkpoint):
        # the fabric's first run restores it (watermark 0, no batch yet) and writes every segment.
        Checkpoint.objects.create(fabric=fabrics[True], watermark=0, data=history)
        Derivation.objects.get_or_create(fabric=fabrics[True])
        print(f"\nForecasting: {len(ends):,} link ends of a {pods}-pod fabric, two copies (trends on, off). "
              f"4 days of hourly optics at every end ({len(ends) * HISTORY_HOURS:,} readings) built the "
              f"trend state in {wall:.1f} s ({cpu:.1f} s CPU); its checkpoint: {len(history) / 1e6:.1f} MB.")  # fmt: skip
        print(
            f"Polls every 5 minutes of sample time from {start:%H:%M} UTC; the first {warmup} are warm-up "
            "(the first run restores the history or builds the state, the first windows)."
        )
        print("Derivation wall time, in brackets CPU of this process and its database backend.")
        print("| poll | trends | derivation | samples per CPU s | windows | links forecast anew | CPU s: apply / ends / "
              "directions / links / checkpoint / forecasts / rest | ratio (CPU) | ratio (wall) |")  # fmt: skip
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        rng = random.Random(1)
        measured: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
        for poll in range(warmup + polls):
            body = poll_csv(ends, start + dt.timedelta(minutes=5 * poll), poll, rng)
            parsed = formats.parse("text/csv", body).samples
            # Alternate which copy goes first, so that neither always runs on a warmer machine.
            order = (True, False) if poll % 2 == 0 else (False, True)
            runs: dict[bool, tuple[float, float, derivation.DerivationResult, dict[str, float]]] = {}
            for trends in order:
                settings.TELEMETRY_TRENDS = trends
                for offset in range(0, len(parsed), BATCH):
                    ingest(fabrics[trends], parsed[offset : offset + BATCH])
                spent.clear()
                c0, t0 = cpu_seconds(), time.perf_counter()
                derived = derivation.derive(fabrics[trends])
                runs[trends] = (time.perf_counter() - t0, cpu_seconds() - c0, derived, dict(spent))
            for trends in (True, False):
                wall, cpu, derived, phases = runs[trends]
                rest = cpu - sum(phases.values())
                split = " / ".join(f"{phases.get(name, 0.0):.2f}" for name in (*PHASES, "forecasts"))
                ratio = (f"{runs[True][1] / runs[False][1]:.3f} | {runs[True][0] / runs[False][0]:.3f}"
                         if trends else " | ")  # fmt: skip
                print(f"| {poll + 1}{' (warm-up)' if poll < warmup else ''} | {'on' if trends else 'off'} | "
                      f"{wall:.2f} s ({cpu:.2f}){(' state restored' if trends else ' state built') if derived.rebuilt else ''} | "
                      f"{derived.samples / cpu:,.0f} | {derived.windows:,} | {len(derived.forecast_links):,} | "
                      f"{split} / {rest:.2f} | {ratio} |",
                      flush=True)  # fmt: skip
                if poll >= warmup:
                    measured[trends].append((wall, cpu))
        on_cpu, off_cpu = (sum(c for _, c in measured[t]) for t in (True, False))
        on_wall, off_wall = (sum(w for w, _ in measured[t]) for t in (True, False))
        pairs = sorted(a[1] / b[1] for a, b in zip(measured[True], measured[False], strict=True))
        print(f"\nSteady state, {polls} polls: with trends {on_cpu:.2f} CPU s ({on_wall:.2f} s wall), without "
              f"{off_cpu:.2f} CPU s ({off_wall:.2f} s): {on_cpu / off_cpu:.3f}x CPU, {on_wall / off_wall:.3f}x wall; "
              f"per poll (CPU) median {statistics.median(pairs):.3f}x, range {pairs[0]:.3f}-{pairs[-1]:.3f}x "
              "(target: at most 1.15x)")  # fmt: skip
        # A worker that lost its state restores it from the fabric's checkpoint before its next run.
        for trends in (True, False):
            settings.TELEMETRY_TRENDS = trends
            derivation.forget_cached_state()
            c0, t0 = cpu_seconds(), time.perf_counter()
            derivation.restore(fabrics[trends], Derivation.objects.get(fabric=fabrics[trends]).watermark)
            print(f"Checkpoint {'with' if trends else 'without'} trends: {checkpoint_bytes(fabrics[trends]) / 1e6:.1f} MB "
                  f"and {segment_bytes(fabrics[trends]) / 1e6:.1f} MB of trend segments, "
                  f"restored in {time.perf_counter() - t0:.2f} s ({cpu_seconds() - c0:.2f} s CPU)")  # fmt: skip
    finally:
        untime()
        derivation.queue_after_commit, settings.TELEMETRY_TRENDS = queue, trends_setting
        derivation.forget_cached_state()
        for fabric in fabrics.values():
            fabric_services.delete_fabric(fabric)


def fill_raw(fabric: Fabric, first_day: dt.date, days: int) -> int:
    """Server-side generation of DAYS days of samples at the real poll rates for every end, written
    poll by poll as ingest writes them: a link's week is then spread over thousands of pages, not
    kept together as a link-by-link fill would leave it."""
    partitions.ensure_partitions(first_day + dt.timedelta(days=d) for d in range(days))
    start = dt.datetime.combine(first_day, dt.time(), dt.UTC)
    with connection.cursor() as cursor:
        for day in range(days):
            t0 = start + dt.timedelta(days=day)
            cursor.execute(
                """
                INSERT INTO telemetry_sample (time, link_id, side, input_power_dbm, output_power_dbm,
                                              in_pkts, in_fcs_errors, out_pkts, out_discards)
                SELECT t, l.id, s.side, -2.5 + random() * 0.2, -1.0,
                       CASE WHEN extract(minute FROM t)::int %% 15 = 0
                            THEN (extract(epoch FROM t) * 1000)::numeric END,
                       CASE WHEN extract(minute FROM t)::int %% 15 = 0 THEN 0 END,
                       CASE WHEN extract(minute FROM t)::int %% 15 = 0
                            THEN (extract(epoch FROM t) * 1000)::numeric END,
                       CASE WHEN extract(minute FROM t)::int %% 15 = 0 THEN 0 END
                  FROM fabric_link l
                 CROSS JOIN (VALUES ('a'), ('z')) AS s(side)
                 CROSS JOIN generate_series(%s::timestamptz, %s::timestamptz - interval '1 second',
                                            interval '5 minutes') AS t
                 WHERE l.fabric_id = %s
                 ORDER BY t, l.id, s.side
                """,
                [t0, t0 + dt.timedelta(days=1), fabric.pk],
            )
        cursor.execute("ANALYZE telemetry_sample")
        cursor.execute(
            "SELECT count(*) FROM telemetry_sample WHERE time >= %s AND time < %s",
            [start, start + dt.timedelta(days=days)],
        )
        return cursor.fetchone()[0]


def covers(fabric: Fabric, start: dt.datetime, end: dt.datetime) -> bool:
    """Whether a kept chart fabric's samples span [start, end) (the first link as witness)."""
    link_id = Link.objects.filter(fabric=fabric).order_by("id").values_list("id", flat=True).first()
    with connection.cursor() as cursor:
        cursor.execute("SELECT min(time), max(time) FROM telemetry_sample WHERE link_id = %s", [link_id])
        first, last = cursor.fetchone()
    return first is not None and first <= start and last >= end - dt.timedelta(minutes=5)


def bench_chart(links: int, days: int, keep: bool) -> None:
    pods = max(1, round(links / (48 * 8)))  # an fb pod has 48 ToRs x 4 fabric uplinks + 4 x 48 spine links
    name = f"bench-telemetry-chart-{pods}"
    today = timezone.now().date()
    first_day = today - dt.timedelta(days=days - 1)
    end = timezone.now()
    start = end - dt.timedelta(days=7)
    fabric = Fabric.objects.filter(name=name).first()
    reuse = keep and fabric is not None and covers(fabric, start, end)
    if not reuse:
        Fabric.objects.filter(name=name).delete()
        fabric = fabric_services.import_document(fb_fabric(pods, name=name, seed=1))
    assert fabric is not None
    link_count = Link.objects.filter(fabric=fabric).count()
    year: list[str] = []
    try:
        year = partitions.ensure_partitions(today - dt.timedelta(days=d) for d in range(365))
        if reuse:
            print(f"\nChart read: reusing {name} and its samples (--keep)")
        else:
            t0 = time.perf_counter()
            rows = fill_raw(fabric, first_day, days)
            print(f"\nChart read: {link_count:,} links, {rows:,} raw samples over {days} days "
                  f"(generated in {time.perf_counter() - t0:.0f} s)")  # fmt: skip
        print(f"{link_count:,} links, {len(partitions.existing_partitions())} daily partitions")
        user, _ = get_user_model().objects.get_or_create(username="bench-viewer", defaults={"is_superuser": True})
        client = Client()
        client.force_login(user)
        ids = list(Link.objects.filter(fabric=fabric).values_list("id", flat=True))
        rng = random.Random(2)
        params = {"from": start.isoformat(), "to": end.isoformat(), "resolution": "raw"}
        client.get(f"/api/links/{ids[0]}/telemetry/", params)  # warm the connection and imports
        samples = []
        points = 0
        for _ in range(50):
            link_id = rng.choice(ids)
            t = time.perf_counter()
            response = client.get(f"/api/links/{link_id}/telemetry/", params)
            samples.append(time.perf_counter() - t)
            assert response.status_code == 200, response.content
            points = len(response.json()["sides"]["a"]["time"])
        print("| query | median | p95 | max | points per side |\n| --- | --- | --- | --- | --- |")
        samples.sort()
        print(f"| GET /api/links/{{id}}/telemetry/ 7 days raw (50 random links) | {statistics.median(samples) * 1000:.0f} ms "
              f"| {samples[int(len(samples) * 0.95) - 1] * 1000:.0f} ms | {samples[-1] * 1000:.0f} ms | {points:,} |")  # fmt: skip
        get_user_model().objects.filter(username="bench-viewer").delete()
    finally:
        if not keep:
            with connection.cursor() as cursor:  # first: a cascade through millions of samples is slow
                for name_ in year:
                    cursor.execute(f"DROP TABLE IF EXISTS {name_}")
            fabric_services.delete_fabric(fabric)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pods", type=int, default=261, help="pods of the ingest fabric (261: 100K links)")
    parser.add_argument("--links", type=int, default=10_000, help="links of the chart fabric")
    parser.add_argument("--days", type=int, default=8, help="full days of raw samples for the chart read")
    parser.add_argument(
        "--processes", type=int, default=1, help="ingest processes, each parsing and ingesting whole batches"
    )
    parser.add_argument("--oper-status", action="store_true", help="every ingest sample carries oper_status (up)")
    parser.add_argument(
        "--forecasting", action="store_true", help="steady-state derivation with and without trends (issue #19)"
    )
    parser.add_argument("--polls", type=int, default=9, help="measured polls of --forecasting, 5 minutes apart")
    parser.add_argument(
        "--warmup", type=int, default=4, help="warm-up polls of --forecasting (the 4th completes the first windows)"
    )
    parser.add_argument("--skip-ingest", action="store_true")
    parser.add_argument("--skip-chart", action="store_true")
    parser.add_argument(
        "--keep",
        action="store_true",
        help="keep the chart fabric and its samples; a later --keep run reuses them while they cover the last 7 days",
    )
    args = parser.parse_args()
    if not args.skip_ingest:
        bench_ingest(args.pods, args.processes, args.oper_status)
    if args.forecasting:
        bench_forecasting(args.pods, args.polls, args.warmup)
    if not args.skip_chart:
        bench_chart(args.links, args.days, args.keep)


if __name__ == "__main__":
    main()
