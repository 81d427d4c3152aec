"""Prometheus remote write against the text format: the same readings pushed both ways.

A batch is SERIES time series of one sample each (1,000 link ends x 10 series by default: five
counters, four Rx lanes, the temperature), what a Prometheus scrape of a 500-link fabric's
exporters sends. Each round gives the readings a new time (every batch is new samples: the fast
path, as a live poll) and pushes them once as a remote-write WriteRequest (snappy protobuf) to
POST /api/telemetry/remote-write/ and once as the text exposition to POST /api/telemetry/, through
Django's request path in-process (parser, view, ingest into PostgreSQL, commit), in alternating
order. Parsing alone is timed too. Derivation is queued to LIGHTPATH_QUEUE, as a live push does,
and not run.

Usage, from the repository root (a migrated database of its own):
    eval "$(backend/scripts/devstack.sh env)"
    LIGHTPATH_DB_NAME=lp_bench LIGHTPATH_QUEUE=lp-bench .venv/bin/python backend/scripts/bench_remote_write.py [--rounds 7]
It creates the fabric bench-remote-write and removes it at the end.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import sys
import time
from pathlib import Path

BACKEND = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(BACKEND))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lightpath.settings")
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.models import Group  # noqa: E402
from django.test import Client  # noqa: E402
from django.utils import timezone  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from accounts.roles import COLLECTOR  # noqa: E402
from fabric import services as fabric_services  # noqa: E402
from fabric.models import Fabric  # noqa: E402
from telemetry import formats  # noqa: E402
from telemetry.formats._remote_write import WriteRequest, compress  # noqa: E402

NAME = "bench-remote-write"
TORS, FABRICS = 50, 10  # 500 links, 1,000 ends
COUNTERS = {
    "ifHCInUcastPkts": 1_000_000,
    "dot3StatsFCSErrors": 3,
    "ifInDiscards": 0,
    "ifHCOutUcastPkts": 1_000_000,
    "ifOutDiscards": 2,
}
RX = "components_component_transceiver_physical_channels_channel_state_input_power_instant"
TEMPERATURE = "components_component_state_temperature_instant"


def document() -> dict:
    switches = [{"name": f"t{i}", "tier": 0} for i in range(TORS)] + [
        {"name": f"f{j}", "tier": 1} for j in range(FABRICS)
    ]
    links = [
        {"a": f"t{i}", "a_port": f"up{j}", "b": f"f{j}", "b_port": f"d{i}"} for i in range(TORS) for j in range(FABRICS)
    ]
    return {"name": NAME, "tiers": ["tor", "fabric"], "switches": switches, "links": links}


def series(round_number: int) -> list[tuple[dict[str, str], float]]:
    """(labels, value) of every series of one batch, as an exporter labels them."""
    out = []
    ends = [(f"t{i}", f"up{j}") for i in range(TORS) for j in range(FABRICS)]
    ends += [(f"f{j}", f"d{i}") for i in range(TORS) for j in range(FABRICS)]
    for number, (switch, port) in enumerate(ends):
        base = {"switch": switch, "port": port}
        for metric, step in COUNTERS.items():
            out.append(({"__name__": metric, **base}, float(step * (round_number + 1) + number)))
        for lane in range(4):
            out.append(({"__name__": RX, **base, "channel_index": str(lane)}, -2.0 - lane / 10 - (number % 7) / 100))
        out.append(({"__name__": TEMPERATURE, **base}, 40.0 + number % 5))
    return out


def remote_write_body(batch: list[tuple[dict[str, str], float]], ms: int) -> bytes:
    request = WriteRequest()
    for labels, value in batch:
        added = request.timeseries.add()
        for name, text in labels.items():
            added.labels.add(name=name, value=text)
        added.samples.add(value=value, timestamp=ms)
    return compress(request)


def text_body(batch: list[tuple[dict[str, str], float]], ms: int) -> bytes:
    lines = []
    for labels, value in batch:
        name = labels["__name__"]
        rest = ",".join(f'{key}="{text}"' for key, text in labels.items() if key != "__name__")
        lines.append(f"{name}{{{rest}}} {value!r} {ms}\n")
    return "".join(lines).encode()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    Fabric.objects.filter(name=NAME).delete()
    fabric_services.import_document(document())
    user, _ = get_user_model().objects.get_or_create(username="bench-remote-write")
    user.groups.add(Group.objects.get_or_create(name=COLLECTOR)[0])
    token = Token.objects.get_or_create(user=user)[0].key
    client = Client(HTTP_AUTHORIZATION=f"Token {token}")
    start = timezone.now() - dt.timedelta(minutes=4 * args.rounds + 10)
    times: dict[str, list[float]] = {"remote write": [], "text": [], "parse remote write": [], "parse text": []}
    sizes = {}
    try:
        for round_number in range(args.rounds):
            batch = series(round_number)
            ms_rw = int((start + dt.timedelta(minutes=4 * round_number)).timestamp()) * 1000
            ms_text = ms_rw + 60_000  # another minute: the text push stores new samples too
            bodies = {"remote write": remote_write_body(batch, ms_rw), "text": text_body(batch, ms_text)}
            sizes = {kind: len(body) for kind, body in bodies.items()}
            t = time.perf_counter()
            formats.parse_remote_write(bodies["remote write"], max_bytes=1 << 30)
            times["parse remote write"].append(time.perf_counter() - t)
            t = time.perf_counter()
            formats.parse("prometheus", bodies["text"])
            times["parse text"].append(time.perf_counter() - t)
            order = ["remote write", "text"] if round_number % 2 == 0 else ["text", "remote write"]
            for kind in order:
                t = time.perf_counter()
                if kind == "remote write":
                    response = client.post(
                        f"/api/telemetry/remote-write/?fabric={NAME}",
                        data=bodies[kind],
                        content_type=formats.REMOTE_WRITE_MEDIA_TYPE,
                        HTTP_CONTENT_ENCODING="snappy",
                    )
                    assert response.status_code == 204, response.content
                else:
                    response = client.post(
                        f"/api/telemetry/?fabric={NAME}", data=bodies[kind], content_type="text/plain; version=0.0.4"
                    )
                    assert response.status_code == 200, response.content
                times[kind].append(time.perf_counter() - t)
    finally:
        Fabric.objects.filter(name=NAME).delete()
    samples = 2 * TORS * FABRICS
    print(f"{len(batch):,} series ({samples:,} samples of 10 fields), {args.rounds} rounds; bodies: "
          f"remote write {sizes['remote write']:,} B, text {sizes['text']:,} B")  # fmt: skip
    print("| step | median | best | series/s (median) |")
    print("| --- | --- | --- | --- |")
    for kind, values in times.items():
        median = statistics.median(values)
        print(f"| {kind} | {median * 1000:.0f} ms | {min(values) * 1000:.0f} ms | {len(batch) / median:,.0f} |")


if __name__ == "__main__":
    main()
