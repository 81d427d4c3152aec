"""larry run|check|cost: Larry rack-uplink reconfiguration on files, offline (the engine computes).

- run: the controller (or a baseline) over per-ToR cumulative counters (JSON list of
  `{"time_s", "ingress_bytes": [...], "egress_bytes": [...]}`), every T = sample spacing.
- check: whether per-rack circuit uplinks (beyond the S static ones) fit the cabling, by integral max flow;
  an infeasible request prints its min cut (the whole request's max flow and the bottleneck racks' request
  and reach, each labelled) and exits non-zero.
- cost: counts and normalised cost of static uplinks, Larry and ShareBackup.

The rack set is a JSON file (`static_uplinks`, `cables[tor][cs]`, `cs_uplinks`, `capacity_gbps`, optional
`excluded` [[tor, cs], ...] for cables disabled by CorrOpt or failed optics) or, without --rack-set, a
uniform one from --racks/--static-uplinks/--circuit-links/--cs-uplinks. docs/reconfig.md has the shapes.

With --server --fabric FABRIC [--circuit-switch NAME ...] the server builds the rack set from the fabric's
stored circuit switches (all of them unless named), leaving out cables whose links are disabled (by CorrOpt
or an operator), down or under an open repair ticket; the answer lists those cables with their reasons.

With --server, `check` calls POST /api/larry/check/ and `run` submits a larry.run job with the counter file
(JSON as offline, or CSV `time_s,rack,ingress_bytes,egress_bytes`) and follows it; the job's result adds the
baselines' metrics, the per-rack uplinks over time (downsampled) and the changed circuits.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from ..context import CliContext, get_context
from ..errors import CliError, UsageError
from ..offline.engine import load_engine
from ..offline.files import read_json_list
from ..offline.larry import engine_rack_set, read_rack_set
from ..options import (
    CancelOnInterruptOption,
    FabricKAliasOption,
    IntervalOption,
    OutputOption,
    ServerFlagOption,
    new_app,
    old_spelling,
    table_or_json,
)
from ..output import OutputFormat, print_json, stdout_console
from ..server.jobs import post_or_reject, run_job_on_server
from ..server.lookup import resolve_fabric

app = new_app()

POLICIES = ["conservative", "static", "one_big_switch", "proportional"]

RackSetOption = Annotated[
    Path | None,
    typer.Option(
        "--rack-set",
        help="Rack-set JSON: static_uplinks (S per rack), cables[tor][cs] (cables from each ToR to each circuit "
        "switch), cs_uplinks (R per circuit switch), capacity_gbps, optional excluded [[tor, cs], ...] (cables out "
        "of service) and racks (names). Example: "
        '{"static_uplinks": 2, "cables": [[2, 2], [2, 2]], "cs_uplinks": [4, 4], "capacity_gbps": 100, '
        '"excluded": [[0, 1]], "racks": ["r1", "r2"]}. Without it, a uniform rack set from the options below.',
    ),
]
# --cables: the old spelling of --rack-set, hidden (kept so existing scripts work).
CablesAliasOption = Annotated[Path | None, typer.Option("--cables", hidden=True)]
RacksOption = Annotated[int, typer.Option("--racks", help="Racks m (uniform rack set).")]
StaticOption = Annotated[int, typer.Option("--static-uplinks", help="Static uplinks S per rack.")]
CircuitLinksOption = Annotated[
    int, typer.Option("--circuit-links", help="Links L per ToR to the CSs, spread evenly (uniform rack set).")
]
CsUplinksOption = Annotated[int, typer.Option("--cs-uplinks", help="Uplinks R per CS (uniform rack set).")]
CapacityOption = Annotated[float, typer.Option("--capacity-gbps", help="Link capacity C.")]
FabricOption = Annotated[
    str | None,
    typer.Option(
        "--fabric",
        metavar="FABRIC",
        help="With --server, instead of --rack-set: build the rack set from this stored fabric's circuit switches "
        "(cables out of service excluded).",
    ),
]
CircuitSwitchOption = Annotated[
    list[str] | None,
    typer.Option(
        "--circuit-switch", metavar="NAME", help="With --fabric: a circuit switch to use (repeat; default all)."
    ),
]


def _fabric_rack_set(
    cli: CliContext, fabric: str, switch_names: list[str] | None, rack_set: Path | None, server: bool
) -> dict[str, Any]:
    """The server's reference to a stored fabric's circuit switches, names resolved to ids."""
    if not server:
        raise typer.BadParameter("needs --server (the fabric is stored on the server)", param_hint="'--fabric'")
    if rack_set is not None:
        raise typer.BadParameter("give --rack-set FILE or --fabric FABRIC, not both", param_hint="'--fabric'")
    with cli.client() as client:
        fabric_id = resolve_fabric(client, fabric)["id"]
        reference: dict[str, Any] = {"fabric": fabric_id}
        if switch_names:
            ids = {
                switch["name"]: switch["id"]
                for switch in client.iterate("/api/circuit-switches/", {"fabric": fabric_id})
            }
            missing = [name for name in switch_names if name not in ids]
            if missing:
                raise CliError(f"--circuit-switch: fabric {fabric!r} has no circuit switch {', '.join(missing)}")
            reference["circuit_switches"] = [ids[name] for name in switch_names]
    return reference


def _print_excluded(answer: dict[str, Any]) -> None:
    """The cables the server left out of a fabric's rack set, with why (nothing for a document)."""
    excluded = answer.get("inputs", {}).get("rack_set_source", {}).get("excluded_cables", [])
    for cable in excluded:
        stdout_console().print(
            f"excluded: {cable['rack']} to {cable['circuit_switch']} (link {cable['link']}): {cable['explanation']}",
            highlight=False,
        )


def min_cut_numbers(answer: dict[str, Any], names: list[str] | None) -> tuple[str, str]:
    """An infeasible check's two numbers in words: the whole request's max flow (the min cut's
    `capacity`) and the bottleneck (the cut's racks: what they ask for and what their cables reach,
    the numbers of the engine's `explanation`). The server's answer carries them too (total_*,
    racks_*); the offline engine's does not, so they are derived here from the fields both have."""
    cut = answer["min_cut"]
    requested = answer["requested"]
    total, asked = sum(requested), sum(requested[t] for t in cut["racks"])
    reach = cut["capacity"] - (total - asked)  # the cut's capacity less the requests of racks outside it
    racks = ", ".join(names[t] if names else f"rack {t}" for t in cut["racks"])  # the server's default names
    one = len(cut["racks"]) == 1
    return (
        f"{cut['capacity']} of {total} circuit uplinks reachable (max flow)",
        f"{racks} request{'s' if one else ''} {asked} but {'its' if one else 'their'} cables reach at most {reach}",
    )


@app.command("check")
def check(
    ctx: typer.Context,
    uplinks: Annotated[str, typer.Option("--uplinks", help="Circuit uplinks per rack, e.g. 3,3,2,0.")],
    rack_set: RackSetOption = None,
    cables: CablesAliasOption = None,
    racks: RacksOption = 4,
    static_uplinks: StaticOption = 2,
    circuit_links: CircuitLinksOption = 4,
    cs_uplinks: CsUplinksOption = 2,
    capacity_gbps: CapacityOption = 100.0,
    server: ServerFlagOption = False,
    fabric: FabricOption = None,
    circuit_switch: CircuitSwitchOption = None,
    output: OutputOption = None,
) -> None:
    """Whether a per-rack uplink vector fits the cabling; the min cut when it does not (exit 1).

    With --server the check runs on the server (POST /api/larry/check/), which lists every problem of the
    rack set at once. With --fabric the rack set is the fabric's circuit switches, cables out of service
    excluded (listed with their reasons)."""
    cli = get_context(ctx)
    fmt = table_or_json(cli.output_format(output))
    rack_set = old_spelling(rack_set, cables, "--rack-set", "--cables")
    try:
        request = [int(part) for part in uplinks.split(",")]
    except ValueError:
        raise UsageError(f"--uplinks: {uplinks!r} is not a comma-separated list of whole numbers") from None
    if any(r < 0 for r in request):
        raise UsageError("--uplinks: counts must not be negative")
    if circuit_switch and fabric is None:
        raise typer.BadParameter("needs --fabric", param_hint="'--circuit-switch'")
    if fabric is not None:
        spec = _fabric_rack_set(cli, fabric, circuit_switch, rack_set, server)
    else:
        spec = read_rack_set(rack_set, racks, static_uplinks, circuit_links, cs_uplinks, capacity_gbps)
    if server:
        answer = post_or_reject(cli, "/api/larry/check/", {"rack_set": spec, "uplinks": request}, "check")
    else:
        try:
            answer = load_engine().larry_check(engine_rack_set(spec), request)
        except ValueError as exc:
            raise CliError(str(exc)) from exc
    names = answer.get("inputs", {}).get("rack_set", {}).get("racks") or spec.get("racks")
    if fmt is OutputFormat.json:
        print_json(answer)
    else:
        from rich.table import Table

        switches = answer.get("inputs", {}).get("rack_set_source", {}).get("circuit_switches")
        columns = (
            [s["name"] for s in switches] if switches else [f"CS {c}" for c in range(len(answer["assignment"][0]))]
        )
        table = Table("rack", "requested", "granted", *columns)
        for t, row in enumerate(answer["assignment"]):
            rack = names[t] if names else str(t)
            table.add_row(rack, str(answer["requested"][t]), str(answer["granted"][t]), *map(str, row))
        stdout_console().print(table)
        _print_excluded(answer)
        if answer["feasible"]:
            stdout_console().print("feasible", highlight=False)
    if not answer["feasible"]:
        whole, bottleneck = min_cut_numbers(answer, names)
        if fmt is OutputFormat.json:  # stdout holds the document: the error line says it all
            raise CliError(f"infeasible: whole request {whole}; bottleneck: {bottleneck}")
        stdout_console().print(f"Whole request: {whole}", highlight=False)
        stdout_console().print(f"Bottleneck: {bottleneck}", highlight=False)
        raise CliError("infeasible: the request does not fit the cables in service (the min cut above)")


@app.command("run")
def run(
    ctx: typer.Context,
    counters: Annotated[
        Path | None,
        typer.Option(
            "--counters",
            help="Counter samples: JSON (a list, or {'samples': [...]}); with --server also CSV "
            "time_s,rack,ingress_bytes,egress_bytes.",
        ),
    ] = None,
    rack_set: RackSetOption = None,
    cables: CablesAliasOption = None,
    racks: RacksOption = 4,
    static_uplinks: StaticOption = 6,
    circuit_links: CircuitLinksOption = 8,
    cs_uplinks: CsUplinksOption = 2,
    capacity_gbps: CapacityOption = 100.0,
    threshold: Annotated[float, typer.Option("--threshold", help="Utilisation at which a link is full (θ).")] = 0.85,
    policy: Annotated[str, typer.Option("--policy", help=f"One of {', '.join(POLICIES)}.")] = "conservative",
    compare: Annotated[bool, typer.Option("--compare", help="Run every policy and compare their metrics.")] = False,
    period_s: Annotated[
        float | None,
        typer.Option("--period", help="With --server: act every T seconds (samples closer together are skipped)."),
    ] = None,
    period_s_old: Annotated[float | None, typer.Option("--period-s", hidden=True)] = None,
    server: ServerFlagOption = False,
    telemetry: Annotated[
        str | None,
        typer.Option(
            "--telemetry",
            metavar="FABRIC",
            help="With --server, instead of --counters: read the counters of the racks' ToRs (the rack set's "
            "'racks' names) from this stored fabric's telemetry over --from/--to.",
        ),
    ] = None,
    since: Annotated[
        str | None, typer.Option("--from", metavar="TIME", help="With --telemetry: window start (ISO 8601).")
    ] = None,
    until: Annotated[
        str | None, typer.Option("--to", metavar="TIME", help="With --telemetry: window end (ISO 8601).")
    ] = None,
    bytes_per_packet: Annotated[
        float, typer.Option("--bytes-per-packet", help="With --telemetry: bytes one counted packet stands for.")
    ] = 1500.0,
    fabric: FabricOption = None,
    circuit_switch: CircuitSwitchOption = None,
    cancel_on_interrupt: CancelOnInterruptOption = False,
    interval: IntervalOption = 1.0,
    output: OutputOption = None,
) -> None:
    """The Larry controller over counter samples: uplinks per rack over time and the circuits that moved.

    With --server --fabric FABRIC the rack set is built from the fabric's circuit switches (see `check`).

    With --server --telemetry FABRIC --from T --to T the job reads the counters from the fabric's telemetry:
    each rack's traffic is its ToR's uplink packet counters (every 900 s unless --period).

    With --server it runs as a larry.run job (the counter file is uploaded; a CSV file is read by the server,
    every bad line listed); --output json prints the job's result, or with --compare the metrics per policy.
    """
    cli = get_context(ctx)
    fmt = table_or_json(cli.output_format(output))
    rack_set = old_spelling(rack_set, cables, "--rack-set", "--cables")
    if policy not in POLICIES:
        raise UsageError(f"--policy must be one of {', '.join(POLICIES)}, got {policy!r}")
    period_s = old_spelling(period_s, period_s_old, "--period", "--period-s")
    if period_s is not None and not server:
        raise typer.BadParameter("applies only with --server", param_hint="'--period'")
    if circuit_switch and fabric is None:
        raise typer.BadParameter("needs --fabric", param_hint="'--circuit-switch'")
    if fabric is not None:
        spec = _fabric_rack_set(cli, fabric, circuit_switch, rack_set, server)
    else:
        spec = read_rack_set(rack_set, racks, static_uplinks, circuit_links, cs_uplinks, capacity_gbps)
    if telemetry is not None and not server:
        raise typer.BadParameter("needs --server (telemetry is on the server)", param_hint="'--telemetry'")
    if (counters is None) == (telemetry is None):
        raise typer.BadParameter(
            "give --counters FILE or (with --server) --telemetry FABRIC", param_hint="'--counters'"
        )
    if server:
        source: dict[str, Any]
        if counters is not None:
            try:
                text = counters.read_text()
            except OSError as exc:
                raise CliError(f"--counters: cannot read {counters}: {exc.strerror}") from exc
            source = {"source": "uploaded", "name": counters.name}
            source["csv" if counters.suffix.lower() == ".csv" else "json"] = text
        else:
            source = {"source": "telemetry", "from": since, "to": until, "bytes_per_packet": bytes_per_packet}
        params = {"rack_set": spec, "counters": source, "period_s": period_s, "threshold": threshold, "policy": policy}
        result = run_job_on_server(
            cli, "larry.run", params, interval=interval, cancel_on_interrupt=cancel_on_interrupt, fabric=telemetry
        )
        runs = result["baselines"]
    else:
        assert counters is not None
        samples = read_json_list(counters, "samples", "--counters")
        engine = load_engine()
        try:
            if compare:
                runs = {
                    name: engine.larry_run(engine_rack_set(spec), samples, threshold, name)["metrics"]
                    for name in POLICIES
                }
            else:
                result = engine.larry_run(engine_rack_set(spec), samples, threshold, policy)
        except ValueError as exc:
            raise CliError(str(exc)) from exc
    from rich.table import Table

    console = stdout_console()
    if compare:
        if fmt is OutputFormat.json:
            print_json(runs)
            return
        table = Table("policy", "reconfigs", "per hour", "mean changed", "max changed", "overload (Gbit)")
        for name, m in runs.items():
            table.add_row(
                name,
                str(m["reconfigurations"]),
                f"{m['reconfigurations_per_hour']:.3g}",
                f"{m['mean_fraction_changed']:.1%}",
                f"{m['max_fraction_changed']:.1%}",
                f"{m['overload_gbit']:.4g}",
            )
        console.print(table)
        return
    if fmt is OutputFormat.json:
        print_json(result)
        return
    m = result["metrics"]
    console.print(
        f"{policy}: {m['reconfigurations']} reconfiguration(s), {m['reconfigurations_per_hour']:.3g}/h, "
        f"{m['mean_fraction_changed']:.1%} of circuits changed on average; initial uplinks {result['initial_uplinks']}",
        highlight=False,
    )
    _print_excluded(result)
    table = Table("time (s)", "demand (Gbit/s)", "uplinks", "circuits moved")
    # offline: every step (those with an empty diff are skipped); the server keeps only the changes
    for step in result["steps"] if "steps" in result else result["changes"]:
        if step["diff"]:
            moves = ", ".join(
                f"CS{d['cs']}.{d['uplink']}: rack {d['from'][0] if d['from'] else '-'}→{d['to'][0] if d['to'] else '-'}"
                for d in step["diff"]
            )
            table.add_row(
                f"{step['time_s']:g}", ", ".join(f"{d:.0f}" for d in step["demand_gbps"]), str(step["uplinks"]), moves
            )
    console.print(table)


@app.command("cost")
def cost(
    ctx: typer.Context,
    racks: RacksOption = 4,
    servers: Annotated[int, typer.Option("--servers", help="Server links per rack (full provisioning).")] = 16,
    static_uplinks: Annotated[int, typer.Option("--static", help="Uplinks per rack of the static design.")] = 4,
    larry_s: Annotated[int, typer.Option("--larry-s", help="Larry static uplinks S.")] = 2,
    larry_l: Annotated[int, typer.Option("--larry-l", help="Larry links L per ToR to the CSs.")] = 4,
    larry_r: Annotated[int, typer.Option("--larry-r", help="Larry uplinks R per CS.")] = 2,
    k: Annotated[
        int | None, typer.Option("--k", show_default=False, help="ShareBackup fat-tree radix k [default: 16].")
    ] = None,
    fabric_k: FabricKAliasOption = None,
    backups: Annotated[int, typer.Option("--backups", help="ShareBackup backups per group.")] = 1,
    cs_port_ratio: Annotated[float, typer.Option("--cs-port-ratio", help="CS port / packet port cost.")] = 0.3,
    output: OutputOption = None,
) -> None:
    """Counts and normalised cost: static oversubscription vs Larry vs ShareBackup."""
    fmt = table_or_json(get_context(ctx).output_format(output))
    k = old_spelling(k, fabric_k, "--k", "--fabric-k") or 16
    try:
        rows = load_engine().reconfig_costs(
            racks, servers, static_uplinks, larry_s, larry_l, larry_r, k, k, backups, cs_port_ratio
        )
    except ValueError as exc:
        raise CliError(str(exc)) from exc
    if fmt is OutputFormat.json:
        print_json(rows)
        return
    from rich.table import Table

    table = Table("design", "packet ports", "CS ports", "active cables", "passive cables", "cost", "normalised")
    for r in rows:
        table.add_row(
            r["design"],
            str(r["packet_ports"]),
            str(r["circuit_ports"]),
            str(r["active_cables"]),
            str(r["passive_cables"]),
            f"{r['cost']:.1f}",
            f"{r['normalised_cost']:.3f}",
        )
    stdout_console().print(table)
