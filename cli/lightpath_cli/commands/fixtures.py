"""fixtures fat-tree|fb-fabric|leaf-spine: write generated fabric documents (offline)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from lightpath_fixtures import document_json, fat_tree, fb_fabric, leaf_spine, links_csv

from ..options import OutFileOption, new_app

app = new_app()


class DocumentFormat(StrEnum):
    json = "json"
    csv = "csv"


NameOption = Annotated[str | None, typer.Option("--name", help="Fabric name [default: derived from the shape].")]
SpeedOption = Annotated[int, typer.Option("--speed", help="Link speed in Gb/s (10, 40 or 100).")]
SeedOption = Annotated[int, typer.Option("--seed", help="Random seed; the same seed gives the same document.")]
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
