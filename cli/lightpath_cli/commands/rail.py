"""rail plan|classes|fec: RAIL offline on files (the engine computes in this process) or on the server.

With FABRIC (a fabric on the server, name or id), `plan` and `classes` run as server jobs (rail.plan,
rail.classes) that the CLI follows with a progress bar; `plan --server --k K` plans a generated
fat tree there; `fec --server` asks GET /api/rail/fec/. Offline: `--fabric-file FABRIC.json` or `--k K`.

- plan: per-link transceivers without and with stretch, cost in the seed's Table 4.1 categories, savings,
  expected good-path fractions and savings curves against the maximum link length. The fabric is an
  interchange document (per-link `length_m` and `speed_gbps`) or a generated k-ary fat tree with lengths
  uniform on [min, max] in the seed's expected-value mode.
- classes: nested reliability classes from per-direction loss rates, with each class's worst path, the share
  of every ToR pair's paths it keeps and the coding its paths need.
- fec: the coding one path needs for a loss target.

Link index = position in the document's `links` (then `links_csv` rows); a link is named `a:a_port-b:b_port`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from ..context import CliContext, get_context
from ..errors import CliError, UsageError
from ..offline.engine import load_engine
from ..offline.rail import AUTO_PAIR_STATS_MAX_TORS, classes_offline, plan_offline
from ..options import (
    CancelOnInterruptOption,
    FabricFileAliasOption,
    FatTreeAliasOption,
    IntervalOption,
    OutputOption,
    document_file,
    fabric_file_option,
    new_app,
    old_spelling,
)
from ..output import OutputFormat, print_csv, print_json, stdout_console
from ..server.errors import ApiError
from ..server.jobs import result_csv, run_job
from ..server.lookup import resolve_fabric

app = new_app()

DEFAULT_BOUNDS = "4.8e-8,1e-3,0.1"

PairStatsOption = Annotated[
    bool | None,
    typer.Option(
        "--pair-stats/--no-pair-stats",
        show_default=False,
        help=f"Per ToR pair statistics [default: on up to {AUTO_PAIR_STATS_MAX_TORS} ToRs].",
    ),
]


ServerFabricArgument = Annotated[
    str | None,
    typer.Argument(
        metavar="FABRIC",
        show_default=False,
        help="A fabric on the server (name or id): run there as a job and follow it.",
    ),
]


def _run_job(
    cli: CliContext,
    kind: str,
    fabric_reference: str | None,
    params: dict[str, Any],
    *,
    interval: float,
    cancel_on_interrupt: bool,
    csv_table: str | None,
) -> tuple[dict[str, Any], str | None]:
    """Submit a RAIL job, follow it, and return its result (and one CSV table of it if asked)."""
    with cli.client() as client:
        fabric = resolve_fabric(client, fabric_reference) if fabric_reference is not None else None
        job = run_job(
            client,
            kind,
            params,
            fabric_id=fabric["id"] if fabric else None,
            where=f" on {fabric['name']}" if fabric else "",
            interval=interval,
            cancel_on_interrupt=cancel_on_interrupt,
        )
        text = result_csv(client, job["id"], csv_table) if csv_table is not None else None
    return job["result"], text


def _refuse(mode: str, options: dict[str, object]) -> None:
    for option, value in options.items():
        if value:
            raise typer.BadParameter(f"applies only {mode}", param_hint=f"'{option}'")


def _numbers(text: str, option: str) -> list[float]:
    try:
        values = [float(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise UsageError(f"{option}: {text!r} is not a comma-separated list of numbers") from None
    if not values:
        raise UsageError(f"{option}: expected at least one number")
    return values


def _prices(items: list[str]) -> dict[str, float]:
    prices: dict[str, float] = {}
    for item in items:
        name, sep, value = item.partition("=")
        try:
            if not sep or not name.strip():
                raise ValueError
            prices[name.strip()] = float(value)
        except ValueError:
            raise UsageError(f"--price: expected NAME=USD (e.g. 40GBASE-SR4=304), got {item!r}") from None
    return prices


def _money(value: float) -> str:
    return f"${value / 1e6:.3f}M" if abs(value) >= 1e5 else f"${value:,.2f}"


def _quantity(line: dict[str, Any]) -> str:
    q = line["quantity"]
    if line["unit"] == "m":
        return f"{q / 1000:,.1f} km"
    if line["unit"] == "kWh":
        return f"{q / 1e6:,.2f} GWh"
    return f"{q:,.0f}"


@app.command("plan")
def plan(
    ctx: typer.Context,
    server_fabric: ServerFabricArgument = None,
    fabric_file: Annotated[
        Path | None, fabric_file_option('A "lightpath-fabric/1" document with link lengths.')
    ] = None,
    fabric_old: FabricFileAliasOption = None,
    fat_tree: Annotated[
        int | None,
        typer.Option("--k", metavar="K", help="Instead of --fabric-file: a k-ary fat tree (k = 32: the seed's)."),
    ] = None,
    fat_tree_old: FatTreeAliasOption = None,
    max_length: Annotated[
        float, typer.Option("--max-length", help="With --k: link lengths uniform up to this, metres.")
    ] = 500.0,
    min_length: Annotated[float, typer.Option("--min-length", help="With --k: shortest link, metres.")] = 0.0,
    speed: Annotated[int, typer.Option("--speed", help="Gb/s of links without speed_gbps (all, with --k).")] = 10,
    nrb: Annotated[
        float,
        typer.Option("--nrb", help="Network reliability bound: 0.99 = the seed's low stretch, 0.95 = high stretch."),
    ] = 0.99,
    no_stretch: Annotated[bool, typer.Option("--no-stretch", help="Plan with rated reaches only.")] = False,
    max_hops: Annotated[
        int | None, typer.Option("--max-hops", help="Hops of the longest path [default: 2 x (tiers - 1)].")
    ] = None,
    price: Annotated[
        list[str] | None,
        typer.Option("--price", metavar="NAME=USD", help="Price of a catalog part (repeat); only 10G is in the seed."),
    ] = None,
    mmf_price: Annotated[float, typer.Option("--mmf-price", help="Multi-mode fiber, USD per metre.")] = 0.44,
    smf_price: Annotated[float, typer.Option("--smf-price", help="Single-mode fiber, USD per metre.")] = 0.21,
    port_cost: Annotated[float, typer.Option("--port-cost", help="USD per switch port.")] = 90.0,
    switch_watts: Annotated[float, typer.Option("--switch-watts", help="Watts per switch.")] = 150.0,
    energy_price: Annotated[float, typer.Option("--energy-price", help="USD per kWh.")] = 0.07,
    years: Annotated[float, typer.Option("--years", help="Years of energy.")] = 3.0,
    sweep_max: Annotated[float, typer.Option("--sweep-max", help="Savings curves up to this maximum length.")] = 1000.0,
    sweep_step: Annotated[float, typer.Option("--sweep-step", help="Step of the savings curves, metres.")] = 10.0,
    links: Annotated[bool, typer.Option("--links", help="JSON: include the per-link choices.")] = False,
    pair_stats: PairStatsOption = None,
    server: Annotated[
        bool, typer.Option("--server", help="With --k: plan the generated fat tree on the server.")
    ] = False,
    name: Annotated[str, typer.Option("--name", help="Server: the plan's name, shown in the UI.")] = "",
    catalog: Annotated[
        list[int] | None,
        typer.Option(
            "--catalog",
            metavar="MODEL_ID",
            show_default=False,
            help="Server: a transceiver model of the stored catalog to use (repeat) [default: all].",
        ),
    ] = None,
    cancel_on_interrupt: CancelOnInterruptOption = False,
    interval: IntervalOption = 1.0,
    output: OutputOption = None,
) -> None:
    """Cost a fabric's optics without and with stretch (expected-value mode with --k).

    With FABRIC (a fabric on the server, every link with a length) or --server --k K, the plan
    runs as a rail.plan job with the stored catalog (prices are set there, not with --price), with a
    progress bar; Ctrl-C detaches unless --cancel-on-interrupt. --output json prints the job's result
    (per-link rows with --links), csv its cost lines.
    """
    cli = get_context(ctx)
    fmt = cli.output_format(output)
    fat_tree = old_spelling(fat_tree, fat_tree_old, "--k", "--fat-tree")
    fabric_path = document_file(fabric_file, fabric_old)
    if sweep_step <= 0 or sweep_max < 0:
        raise UsageError("--sweep-step must be positive and --sweep-max non-negative")
    costs = {
        "mmf_usd_per_m": mmf_price,
        "smf_usd_per_m": smf_price,
        "port_usd": port_cost,
        "switch_watts": switch_watts,
        "usd_per_kwh": energy_price,
        "years": years,
    }
    if server_fabric is not None or server:
        if fabric_path is not None:
            raise typer.BadParameter("give FABRIC (on the server) or --fabric-file FABRIC.json (offline), not both")
        if (server_fabric is None) == (fat_tree is None):
            raise typer.BadParameter("on the server: give FABRIC, or --server --k K", param_hint="'FABRIC'")
        _refuse("offline; set prices in the catalog (/api/transceiver-models/)", {"--price": price})
        params: dict[str, Any] = {
            "name": name,
            "nrb": None if no_stretch else nrb,
            "max_hops": max_hops,
            "costs": costs,
            "sweep": {"max_length_m": sweep_max, "step_m": sweep_step},
            "pair_stats": pair_stats,
            "catalog": catalog or None,
        }
        if fat_tree is not None:
            params["generate"] = {
                "k": fat_tree,
                "min_length_m": min_length,
                "max_length_m": max_length,
                "speed_gbps": speed,
            }
        else:
            params["default_speed_gbps"] = speed
        result, text = _run_job(
            cli,
            "rail.plan",
            server_fabric,
            params,
            interval=interval,
            cancel_on_interrupt=cancel_on_interrupt,
            csv_table="costs" if fmt is OutputFormat.csv else None,
        )
        if text is not None:
            sys.stdout.write(text)
            return
        report = {"fabric": result["inputs"]["description"], **result}
        if not links:
            report.pop("links")
        _print_plan(fmt, report)
        return
    _refuse("on the server (FABRIC or --server)", {"--name": name, "--catalog": catalog})
    if (fabric_path is None) == (fat_tree is None):
        raise UsageError("give either --fabric-file FABRIC.json or --k K (or FABRIC, a fabric on the server)")
    steps = int(sweep_max / sweep_step + 1e-9)
    source, result = plan_offline(
        fabric_path,
        fat_tree,
        nrb=None if no_stretch else nrb,
        prices=_prices(price or []),
        costs=costs,
        max_hops=max_hops,
        sweep_max_lengths_m=[i * sweep_step for i in range(steps + 1)],
        sweep_nrbs=[0.99, 0.95] if no_stretch else sorted({0.99, 0.95, nrb}, reverse=True),
        speed=speed,
        lengths=(min_length, max_length),
        pair_stats=pair_stats,
    )
    report = {"fabric": source, **result}
    if not links:
        report.pop("links")
    _print_plan(fmt, report)


def _print_plan(fmt: OutputFormat, report: dict[str, Any]) -> None:
    if fmt is OutputFormat.json:
        print_json(report)
        return
    if fmt is OutputFormat.csv:
        rows = [{"design": design, **line} for design in ("baseline", "plan") for line in report[design]["lines"]]
        print_csv(rows, ["design", "category", "item", "unit_usd", "unit", "quantity", "total_usd"])
        return
    from rich.table import Table

    console = stdout_console()
    nrb = report["nrb"]
    console.print(
        f"{report['fabric']}: {'no stretch' if nrb is None else f'NRB {nrb:g}'}, "
        f"{report['max_hops']} hops per path"
        + (f", each link good with p >= {report['link_bound']:.5f}" if report["link_bound"] else ""),
        highlight=False,
    )
    baseline = {line["item"]: line for line in report["baseline"]["lines"]}
    plan = {line["item"]: line for line in report["plan"]["lines"]}
    table = Table(show_edge=False, header_style="bold")
    for header, justify in (
        ("Item", "left"),
        ("Unit cost", "right"),
        ("Baseline", "right"),
        ("Total", "right"),
        ("Plan", "right"),
        ("Total", "right"),
    ):
        table.add_column(header, justify=justify)  # type: ignore[arg-type]
    for item in list(baseline) + [item for item in plan if item not in baseline]:
        b, p = baseline.get(item), plan.get(item)
        line = b or p
        assert line is not None
        table.add_row(
            item,
            f"${line['unit_usd']:g}/{line['unit']}",
            _quantity(b) if b else "-",
            _money(b["total_usd"]) if b else "-",
            _quantity(p) if p else "-",
            _money(p["total_usd"]) if p else "-",
        )
    table.add_row(
        "total",
        "",
        "",
        _money(report["baseline"]["total_usd"]),
        "",
        _money(report["plan"]["total_usd"]),
    )
    console.print(table)
    console.print(
        f"savings {report['savings']:.2%}; transceivers {report['baseline']['transceiver_share']:.1%} of the "
        f"baseline, {report['plan']['transceiver_share']:.1%} of the plan; "
        f"{report['stretched_links']:,.0f} links stretched",
        highlight=False,
    )
    good = report["good_paths"]
    if good is not None and good["worst_pair"] is not None:
        worst = good["worst_pair"]
        quantiles = ", ".join(f"p{q * 100:g} {v:.4f}" for q, v in good["quantiles"])
        console.print(
            f"expected good-path fraction: mean {good['mean']:.5f}, worst pair {worst['src_name']} -> "
            f"{worst['dst_name']} {worst['fraction']:.5f} ({quantiles}); bound {report['path_bound']:.5f}",
            highlight=False,
        )
    for curve in report["sweeps"]:
        points = [(length, s) for length, s in curve["points"] if s is not None]
        if not points or curve["nrb"] is None:
            continue
        length, best = max(points, key=lambda p: p[1])
        label = "no stretch" if curve["nrb"] is None else f"NRB {curve['nrb']:g}"
        console.print(f"savings curve, {label}: peak {best:.2%} at max length {length:g} m", highlight=False)


@app.command("classes")
def classes(
    ctx: typer.Context,
    server_fabric: ServerFabricArgument = None,
    fabric_file: Annotated[
        Path | None, fabric_file_option("Offline: an interchange document (needs --loss-rates).")
    ] = None,
    fabric_old: FabricFileAliasOption = None,
    loss_rates: Annotated[
        Path | None,
        typer.Option(
            "--loss-rates",
            metavar="LOSS.csv",
            help="Offline: CSV link,loss_rate or link,loss_rate,loss_rate_down (fractions; loss_rate is the upward "
            "direction, from the lower-tier switch); links not listed lose nothing.",
        ),
    ] = None,
    bounds: Annotated[
        str, typer.Option("--bounds", help="Worst-path bound of each class, increasing.")
    ] = DEFAULT_BOUNDS,
    repair_above: Annotated[
        float, typer.Option("--repair-above", help="Links losing more in either direction go to repair.")
    ] = 0.1,
    fec_target: Annotated[float, typer.Option("--fec-target", help="Loss target of path coding.")] = 1e-3,
    window_hours: Annotated[
        float | None,
        typer.Option(
            "--window-hours",
            metavar="H",
            show_default=False,
            help="Server: use loss rates measured in the last H hours; directions without one count as clean "
            "[default: 24].",
        ),
    ] = None,
    pair_stats: PairStatsOption = None,
    cancel_on_interrupt: CancelOnInterruptOption = False,
    interval: IntervalOption = 1.0,
    output: OutputOption = None,
) -> None:
    """Build nested reliability classes; JSON and CSV list each class's links for routing configuration.

    With FABRIC (a fabric on the server) the classes are built by a rail.classes job from each link
    direction's latest measured corruption loss rate; --output csv prints the class_links table (class,
    bound, link id and both ends). Offline: --fabric-file FABRIC.json --loss-rates LOSS.csv.
    """
    cli = get_context(ctx)
    fmt = cli.output_format(output)
    bound_values = _numbers(bounds, "--bounds")
    fabric_path = document_file(fabric_file, fabric_old)
    if server_fabric is not None:
        if fabric_path is not None or loss_rates is not None:
            raise typer.BadParameter(
                "give FABRIC (on the server) or --fabric-file FABRIC.json --loss-rates LOSS.csv (offline), not both"
            )
        params: dict[str, Any] = {
            "bounds": bound_values,
            "repair_above": repair_above,
            "fec_target": fec_target,
            "pair_stats": pair_stats,
        }
        if window_hours is not None:
            params["window_hours"] = window_hours
        result, text = _run_job(
            cli,
            "rail.classes",
            server_fabric,
            params,
            interval=interval,
            cancel_on_interrupt=cancel_on_interrupt,
            csv_table="class_links" if fmt is OutputFormat.csv else None,
        )
        if text is not None:
            sys.stdout.write(text)
            return
        unmeasured = result["unmeasured"]
        if unmeasured["directions"] and fmt is not OutputFormat.json:
            typer.echo(
                f"note: {unmeasured['directions']} link directions ({len(unmeasured['links'])} links) had no loss "
                f"rate in the last {result['inputs']['window_hours']:g} h: {unmeasured['rule']}",
                err=True,
            )
        _print_classes(fmt, {**result, "fabric": result["inputs"]["fabric"]["name"]})
        return
    _refuse("on the server (FABRIC)", {"--window-hours": window_hours})
    if fabric_path is None or loss_rates is None:
        raise typer.BadParameter("give FABRIC (on the server) or --fabric-file FABRIC.json --loss-rates LOSS.csv")
    report = classes_offline(
        fabric_path,
        loss_rates,
        bounds=bound_values,
        repair_above=repair_above,
        fec_target=fec_target,
        pair_stats=pair_stats,
    )
    _print_classes(fmt, report)


def _print_classes(fmt: OutputFormat, report: dict[str, Any]) -> None:
    if fmt is OutputFormat.json:
        print_json(report)
        return
    if fmt is OutputFormat.csv:
        rows = [
            {"class": c["class"], "bound": c["bound"], "link": link, "name": name}
            for c in report["classes"]
            for link, name in zip(c["links"], c["link_names"], strict=True)
        ]
        print_csv(rows, ["class", "bound", "link", "name"])
        return
    from rich.table import Table

    console = stdout_console()
    console.print(
        f"{report['fabric']}: {report['alive']} of {report['links']} links alive, "
        f"{len(report['repair'])} to repair"
        + (": " + ", ".join(r["name"] for r in report["repair"][:5]) if report["repair"] else "")
        + (f" and {len(report['repair']) - 5} more" if len(report["repair"]) > 5 else ""),
        highlight=False,
    )
    table = Table(show_edge=False, header_style="bold")
    for header in (
        "Class",
        "Bound",
        "Links",
        "Removed",
        "Worst path loss",
        "Worst path",
        "Kept paths min / p1 / p50",
        "FEC overhead",
    ):
        table.add_column(header)
    for c in report["classes"]:
        worst = c["worst"]
        kept = c["kept_paths"]
        quantiles = dict(kept["quantiles"]) if kept else {}
        table.add_row(
            str(c["class"]),
            f"{c['bound']:g}",
            str(len(c["links"])),
            str(len(c["removed"])),
            f"{worst['loss']:.3g}" if worst else "-",
            f"{worst['src_name']} -> {worst['top_name']} -> {worst['dst_name']}" if worst else "-",
            (
                f"{kept['worst_pair']['fraction']:.3f} / {quantiles.get(0.01, float('nan')):.3f} / "
                f"{quantiles.get(0.5, float('nan')):.3f}"
                if kept and kept["worst_pair"]
                else "-"
            ),
            f"{c['fec']['mean_overhead']:.3%}" if c["fec"] else "-",
        )
    console.print(table)


@app.command("fec")
def fec(
    ctx: typer.Context,
    loss: Annotated[float, typer.Option("--loss", help="Path loss rate (fraction).")],
    target: Annotated[float, typer.Option("--target", help="Loss after recovery (fraction).")] = 1e-3,
    server: Annotated[bool, typer.Option("--server", help="Ask the server (GET /api/rail/fec/).")] = False,
    output: OutputOption = None,
) -> None:
    """The coding a path needs: none, XOR(n) with the largest n meeting the target, or triple replication."""
    cli = get_context(ctx)
    fmt = cli.output_format(output)
    if server:
        with cli.client() as client:
            try:
                result = client.get("/api/rail/fec/", params={"loss": loss, "target": target})
            except ApiError as error:
                if error.status != 400:
                    raise
                raise CliError("the server refused the question", details=error.details) from error
    else:
        try:
            result = load_engine().rail_fec(loss, target)
        except ValueError as exc:
            raise CliError(str(exc)) from exc
    keys = ["loss", "target", "scheme", "n", "residual_loss", "overhead"]
    if fmt is OutputFormat.json:
        print_json({key: result[key] for key in keys})
    elif fmt is OutputFormat.csv:
        print_csv([result], keys)
    else:
        n = result["n"]
        scheme = {
            "none": "no coding (loss below the target)",
            "xor": f"XOR, one parity packet per {n} data packets"
            if n != 1
            else "XOR, one parity packet per data packet",
            "replicate3": "send every packet three times",
            "unusable": "no scheme meets the target: repair the path's links",
        }[result["scheme"]]
        # Loss, target and overhead in one unit: percent, with the digits that matter.
        stdout_console().print(
            f"{scheme}: residual loss {_percent(result['residual_loss'])} (target {_percent(result['target'])}), "
            f"overhead {_percent(result['overhead'])}",
            highlight=False,
        )
    if result["scheme"] == "unusable":
        # Scripts must not take "no coding helps" for an answer they can use.
        raise typer.Exit(1)


def _percent(fraction: float) -> str:
    return f"{fraction * 100:.3g}%"
