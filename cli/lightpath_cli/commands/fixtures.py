"""fixtures fat-tree|fb-fabric|leaf-spine|telemetry: write generated fabric documents and telemetry (offline)."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from lightpath_fixtures import document_json, fat_tree, fb_fabric, leaf_spine, links_csv
from lightpath_fixtures.telemetry import (
    generate_telemetry,
    parse_anomaly_counts,
    parse_fault_counts,
    parse_slow_fault_counts,
    write_telemetry,
)

from ..errors import UsageError
from ..offline.files import atomic_text_file, read_document_file
from ..options import (
    FabricFileAliasOption,
    OutFileOption,
    document_file,
    fabric_file_option,
    new_app,
    required,
    seed_option,
)

app = new_app()


class DocumentFormat(StrEnum):
    json = "json"
    csv = "csv"


NameOption = Annotated[str | None, typer.Option("--name", help="Fabric name [default: derived from the shape].")]
SpeedOption = Annotated[int, typer.Option("--speed", help="Link speed in Gb/s (10, 40 or 100).")]
SeedOption = Annotated[int, seed_option("Random seed; the same seed gives the same document.")]
LengthRangeOption = Annotated[
    tuple[float, float] | None,
    typer.Option(
        "--length-range",
        metavar="MIN MAX",
        show_default=False,
        help="Uniform cable lengths in metres for every link [default: per tier, e.g. 2-50 m for ToR uplinks].",
    ),
]
FormatOption = Annotated[
    DocumentFormat,
    typer.Option("--format", case_sensitive=False, help="json: the whole document; csv: links only."),
]
CompactOption = Annotated[bool, typer.Option("--compact", help="JSON without indentation (smaller, faster).")]


def _emit(build: Callable[[], dict[str, Any]], out_file: Path | None, fmt: DocumentFormat, compact: bool) -> None:
    started = time.perf_counter()
    try:
        doc = build()
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from exc
    text = links_csv(doc["links"]) if fmt is DocumentFormat.csv else document_json(doc, indent=None if compact else 2)
    if out_file is None:
        sys.stdout.write(text)
        return
    out_file.write_text(text, encoding="utf-8")
    elapsed = time.perf_counter() - started
    typer.echo(
        f"wrote {out_file}: {doc['name']}, {len(doc['switches'])} switches, {len(doc['links'])} links "
        f"({elapsed:.2f} s)",
        err=True,
    )


@app.command("fat-tree")
def fat_tree_command(
    k: Annotated[int, typer.Option("--k", help="Switch radix (even): k pods, 5k²/4 switches, k³/2 links.")],
    name: NameOption = None,
    speed: SpeedOption = 100,
    length_range: LengthRangeOption = None,
    seed: SeedOption = 0,
    out_file: OutFileOption = None,
    format: FormatOption = DocumentFormat.json,
    compact: CompactOption = False,
) -> None:
    """A k-ary three-tier fat tree (tiers tor, aggregation, core)."""
    _emit(
        lambda: fat_tree(k, name=name, length_range=length_range, speed_gbps=speed, seed=seed),
        out_file,
        format,
        compact,
    )


@app.command("fb-fabric")
def fb_fabric_command(
    pods: Annotated[int, typer.Option("--pods", help="Number of pods (261 gives 100,224 links at the defaults).")],
    tors_per_pod: Annotated[int, typer.Option("--tors-per-pod")] = 48,
    fabric_per_pod: Annotated[int, typer.Option("--fabric-per-pod", help="Also the number of spine planes.")] = 4,
    spines_per_plane: Annotated[int, typer.Option("--spines-per-plane")] = 48,
    name: NameOption = None,
    speed: SpeedOption = 100,
    length_range: LengthRangeOption = None,
    seed: SeedOption = 0,
    out_file: OutFileOption = None,
    format: FormatOption = DocumentFormat.json,
    compact: CompactOption = False,
) -> None:
    """A Facebook-style fabric: pods of ToRs and fabric switches, fabric switch j joins spine plane j."""
    _emit(
        lambda: fb_fabric(
            pods,
            tors_per_pod=tors_per_pod,
            fabric_per_pod=fabric_per_pod,
            spines_per_plane=spines_per_plane,
            name=name,
            length_range=length_range,
            speed_gbps=speed,
            seed=seed,
        ),
        out_file,
        format,
        compact,
    )


@app.command("leaf-spine")
def leaf_spine_command(
    leaves: Annotated[int, typer.Option("--leaves", help="Number of leaf (ToR) switches.")],
    spines: Annotated[int, typer.Option("--spines", help="Number of spine switches.")],
    name: NameOption = None,
    speed: SpeedOption = 100,
    length_range: LengthRangeOption = None,
    seed: SeedOption = 0,
    out_file: OutFileOption = None,
    format: FormatOption = DocumentFormat.json,
    compact: CompactOption = False,
) -> None:
    """A two-tier leaf-spine fabric (every leaf joins every spine)."""
    _emit(
        lambda: leaf_spine(leaves, spines, name=name, length_range=length_range, speed_gbps=speed, seed=seed),
        out_file,
        format,
        compact,
    )


class TelemetryFormat(StrEnum):
    json = "json"
    csv = "csv"
    openconfig = "openconfig"
    prometheus = "prometheus"


def _parse_start(text: str | None, hours: float, interval_s: int) -> datetime:
    """--start as an aware UTC time; without it, the range ends at the last counter poll before now."""
    if text is None:
        now = int(time.time())
        return datetime.fromtimestamp(now - now % interval_s, UTC) - timedelta(hours=hours)
    try:
        start = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise UsageError(f"--start: '{text}' is not an ISO 8601 time (e.g. 2026-11-22T10:00:00Z)") from None
    return start if start.tzinfo else start.replace(tzinfo=UTC)  # no offset given: UTC


@app.command("telemetry")
def telemetry_command(
    fabric_file: Annotated[Path | None, fabric_file_option()] = None,
    fabric_old: FabricFileAliasOption = None,
    hours: Annotated[float, typer.Option("--hours", help="Length of the time range.")] = 24.0,
    start: Annotated[
        str | None,
        typer.Option(
            "--start",
            metavar="ISO",
            show_default=False,
            help="First poll, ISO 8601 (UTC when no offset) [default: the range ends at the last 15-minute poll before now].",
        ),
    ] = None,
    seed: SeedOption = 0,
    faults: Annotated[
        str,
        typer.Option(
            "--faults",
            metavar="KIND=N,...",
            help="Faults on random links: contamination (old name: dirty_connector), bent_fiber, "
            "decaying_transmitter, loose_transceiver, shared_component (e.g. contamination=2,bent_fiber=1).",
        ),
    ] = "",
    anomalies: Annotated[
        str,
        typer.Option(
            "--anomalies", metavar="KIND=N,...", help="Counter anomalies on random link ends: reset, wrap, gap."
        ),
    ] = "",
    slow_faults: Annotated[
        str,
        typer.Option(
            "--slow-faults",
            metavar="KIND=N,...",
            help="Faults that decay over days before they corrupt: decaying_transmitter, contamination, "
            "bent_fiber (example below); the truth file gets their decay onset, threshold crossing and "
            "corruption onset.",
        ),
    ] = "",
    texture: Annotated[
        bool | None,
        typer.Option(
            "--texture/--no-texture",
            show_default=False,
            help="Lane noise, diurnal temperature moving the power, receivers near their limit, missed polls "
            "and counter resets, as real feeds have [default: on with --slow-faults].",
        ),
    ] = None,
    format: Annotated[
        TelemetryFormat, typer.Option("--format", case_sensitive=False, help="The ingest format (docs/telemetry.md).")
    ] = TelemetryFormat.json,
    counter_interval: Annotated[int, typer.Option("--counter-interval", help="Seconds between counter polls.")] = 900,
    optical_interval: Annotated[int, typer.Option("--optical-interval", help="Seconds between optical polls.")] = 300,
    congested: Annotated[
        float, typer.Option("--congested", help="Share of link directions whose drops follow utilisation.")
    ] = 0.1,
    out_file: OutFileOption = None,
    truth: Annotated[
        Path | None,
        typer.Option(
            "--truth", metavar="TRUTH.json", dir_okay=False, help="Write the injected faults and anomalies here."
        ),
    ] = None,
) -> None:
    """Synthetic optical telemetry for every link of a fabric document, with injected faults.

    Healthy links follow the seed's optical margins; faults follow CorrOpt's Table 3.2 with Table
    3.1 loss rates. The same document, options and seed give the same file.

    Slow faults take days: a laser ages 0.5-3 dB over 3-30 days, contamination grows over 3-30
    days, a stressed fiber steps down 2-4 times 0.5-5 days apart. --hours must cover days for a
    decay to show (the forecast's trend window is 4 days). Two weeks of a fabric with three
    ageing lasers, two contaminations and a bend, and the truth of each:

    \b
      lightpath fixtures telemetry --fabric-file fabric.json --hours 336 \\
        --slow-faults decaying_transmitter=3,contamination=2,bent_fiber=1 \\
        --truth truth.json -o telemetry.json
    """
    fabric = required(document_file(fabric_file, fabric_old), "--fabric-file")
    started = time.perf_counter()
    try:
        fault_specs = parse_fault_counts(faults)
    except ValueError as exc:
        raise UsageError(f"--faults: {exc}") from None
    try:
        anomaly_specs = parse_anomaly_counts(anomalies)
    except ValueError as exc:
        raise UsageError(f"--anomalies: {exc}") from None
    try:
        slow_specs = parse_slow_fault_counts(slow_faults)
    except ValueError as exc:
        raise UsageError(f"--slow-faults: {exc}") from None
    first = _parse_start(start, hours, counter_interval)
    doc = read_document_file(str(fabric))
    try:
        telemetry = generate_telemetry(
            doc,
            start=first,
            hours=hours,
            seed=seed,
            faults=fault_specs,
            anomalies=anomaly_specs,
            counter_interval_s=counter_interval,
            optical_interval_s=optical_interval,
            congested_fraction=congested,
            slow_faults=slow_specs,
            texture=texture,
        )
    except ValueError as exc:
        raise UsageError(f"{fabric}: {exc}") from None
    if out_file is None:
        write_telemetry(telemetry, sys.stdout, format.value)
    else:
        with atomic_text_file(out_file) as handle:
            write_telemetry(telemetry, handle, format.value)
    if truth is not None:
        with atomic_text_file(truth) as handle:
            handle.write(json.dumps(telemetry.truth, indent=2, ensure_ascii=False) + "\n")
    if out_file is not None:
        elapsed = time.perf_counter() - started
        typer.echo(
            f"wrote {out_file}: {telemetry.sample_count} samples of {len(telemetry.ends)} link ends, "
            f"{hours:g} h from {telemetry.truth['start']}, {len(telemetry.truth['faults'])} faults"
            + (f", {len(telemetry.truth['slow_faults'])} slow faults" if "slow_faults" in telemetry.truth else "")
            + f" ({elapsed:.2f} s)",
            err=True,
        )
