"""corropt trace|simulate: synthetic corruption traces, and replaying a trace under each policy.

`simulate` has two paths: offline (--fabric-file FABRIC.json --trace TRACE.csv) runs the engine in this
process (lightpath_cli.offline.corropt.simulate); with FABRIC, a fabric on the server, it runs as a
corruption.simulate job, once per --constraint x --accuracy. An option of one path given on the other
is refused with one line.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from ...context import CliContext, get_context
from ...offline.corropt import HOUR_S, Policy, make_trace, simulate
from ...offline.files import read_text, write_atomically
from ...options import (
    CancelOnInterruptOption,
    FabricFileAliasOption,
    IntervalOption,
    OutFileOption,
    OutputOption,
    document_file,
    fabric_file_option,
    old_spelling,
    required,
)
from ...output import Column, OutputFormat, fraction, print_csv, print_json, print_rows, stdout_console
from ...server.jobs import result_csv, run_job
from ...server.lookup import resolve_fabric
from .options import (
    CapacityAliasOption,
    PenaltyName,
    PenaltyOption,
    SeedOption,
    StateOption,
    finite,
    fraction_option,
    hours_option,
    server_fabric_argument,
)

SIM_UPLOAD_TIMEOUT_S = 120.0  # an uploaded trace may be megabytes
SIM_POLICY_KEYS = (
    "policy",
    "share",
    "penalty_seconds",
    "active_corrupting_seconds",
    "disabled_seconds",
    "lowest_worst_fraction",
    "counts",
    "penalty_ratio_vs_corropt",
)


def _number(value: Any) -> str:
    return "-" if value is None else f"{float(value):.4g}"


SIM_COLUMNS = (
    Column("policy", "Policy"),
    Column("penalty_seconds", "Penalty·s", render=_number, justify="right"),
    Column("penalty_ratio_vs_corropt", "vs corropt", render=_number, justify="right"),
    Column("active_corrupting_seconds", "Corrupting link·s", render=_number, justify="right"),
    Column("disabled_seconds", "Disabled link·s", render=_number, justify="right"),
    Column("lowest_worst_fraction", "Lowest worst ToR", render=fraction, justify="right"),
    Column("disables", "Disables", justify="right"),
    Column("refused_arrivals", "Refused", justify="right"),
    Column("repairs", "Repairs", justify="right"),
    Column("absorbed_onsets", "Absorbed", justify="right"),
    Column("optimizer_runs", "Optimizer runs", justify="right"),
    Column("threshold_breaches", "Breaches", justify="right"),
)


def _print_simulation(fmt: OutputFormat, report: dict[str, Any]) -> None:
    policies = report["policies"]
    if fmt is OutputFormat.json:
        print_json(report)
        return
    if fmt is OutputFormat.csv:
        print_csv(policies, SIM_POLICY_KEYS)
        return
    print_rows(fmt, [{**row, **row["counts"]} for row in policies], SIM_COLUMNS, [])
    trace, settings = report["trace"], report["settings"]
    horizon = trace["horizon_s"]
    lines = [
        f"{report['fabric']}: {trace['onsets']} onsets from {trace['file']} over {horizon:.6g} s "
        f"({horizon / HOUR_S:.4g} h)",
        f"capacity {fraction(settings['capacity'])}, {settings['penalty_function']} penalty, repair after "
        f"{settings['repair_delay_s'] / HOUR_S:g} h fixed with probability {settings['fix_probability']:g} "
        f"(else another round), seed {settings['seed']}",
    ]
    if settings["initially_disabled"] or settings["initially_down"]:
        lines.append(
            f"start: {settings['initially_disabled']} links disabled (awaiting repair), "
            f"{settings['initially_down']} down"
        )
    local = next((row for row in policies if row["policy"] == Policy.switch_local.value), None)
    if local is not None and local["share"] is not None:
        lines.append(f"switch-local share {fraction(local['share'])}")
    for line in lines:
        stdout_console().print(line, highlight=False)


def trace_command(
    mttf_hours: Annotated[
        float,
        typer.Option("--mttf-hours", metavar="H", help="Mean time between corruption onsets of one link, in hours."),
    ],
    hours: Annotated[float, typer.Option("--hours", metavar="N", min=0.0, help="Length of the trace, in hours.")],
    fabric_file: Annotated[Path | None, fabric_file_option()] = None,
    fabric_old: FabricFileAliasOption = None,
    seed: SeedOption = 0,
    names: Annotated[
        bool, typer.Option("--names", help="Write links as a:a_port-b:b_port instead of their index.")
    ] = False,
    out_file: OutFileOption = None,
) -> None:
    """Synthetic corruption onsets as time_s,link,loss_rate CSV.

    Each link starts corrupting as a Poisson process with mean time between onsets --mttf-hours; loss
    rates follow the buckets of CorrOpt's Table 3.1, log-uniform within a bucket. The same seed gives
    the same trace. A summary line goes to stderr.
    """
    fabric = required(document_file(fabric_file, fabric_old), "--fabric-file")
    finite(hours, "--hours")
    if not (math.isfinite(mttf_hours) and mttf_hours > 0):
        raise typer.BadParameter(f"{mttf_hours} is not a finite number above 0", param_hint="'--mttf-hours'")
    text, summary = make_trace(fabric, mttf_hours, hours, seed, names)
    if out_file is None:
        sys.stdout.write(text)
        typer.echo(summary, err=True)
    else:
        write_atomically(out_file, text)
        typer.echo(f"wrote {out_file}: {summary}", err=True)


def simulate_command(
    ctx: typer.Context,
    server_fabric: Annotated[
        str | None, server_fabric_argument("run the simulation there as a job and follow it.")
    ] = None,
    fabric_file: Annotated[
        Path | None, fabric_file_option('Offline instead: a "lightpath-fabric/1" interchange document (needs --trace).')
    ] = None,
    fabric_old: FabricFileAliasOption = None,
    trace: Annotated[
        Path | None,
        typer.Option(
            "--trace",
            metavar="TRACE.csv",
            show_default=False,
            help="Onsets: header time_s,link,loss_rate, sorted by time (e.g. from `corropt trace`). On the server a "
            "link is its id, SWITCH:PORT of either end or A_SWITCH:A_PORT-Z_SWITCH:Z_PORT [server default: a "
            "generated trace].",
        ),
    ] = None,
    policy: Annotated[
        list[Policy] | None,
        typer.Option(
            "--policy",
            metavar="corropt|fast-checker|switch-local",
            case_sensitive=False,
            show_default=False,
            help="A policy to run; repeat for several [default: corropt, fast-checker and switch-local].",
        ),
    ] = None,
    constraint: Annotated[
        list[float] | None,
        fraction_option(
            "--constraint",
            metavar="C",
            help="The default ToR capacity constraint. Offline: once [default: the document's "
            "capacity_constraint, else 0.75]; server: repeat for several runs [default: 0.5 and 0.75].",
        ),
    ] = None,
    capacity: CapacityAliasOption = None,
    penalty: PenaltyOption = PenaltyName.linear,
    share: Annotated[
        float | None,
        fraction_option(
            "--share", help="Offline, switch-local: share of its up-links each switch keeps [default: capacity^(1/r)]."
        ),
    ] = None,
    repair_delay_hours: Annotated[
        float,
        typer.Option("--repair-delay-hours", metavar="H", help="Time a disabled link waits for a repair attempt."),
    ] = 48.0,
    accuracy: Annotated[
        list[float] | None,
        fraction_option(
            "--accuracy",
            metavar="P",
            help="Repair accuracy: the chance the first repair attempt fixes a link (else it takes another "
            "round). Offline: once [default: 0.8]; server: repeat for several runs [default: 0.5 and 0.8].",
        ),
    ] = None,
    fix_probability: Annotated[float | None, fraction_option("--fix-probability", hidden=True)] = None,
    state: StateOption = None,
    seed: SeedOption = 0,
    horizon_hours: Annotated[
        float | None,
        hours_option(
            "--horizon-hours",
            help="End of the simulated window [default: the last onset]. Onsets after it are not counted.",
        ),
    ] = None,
    time_budget: Annotated[
        float | None,
        typer.Option(
            "--time-budget",
            metavar="SECONDS",
            min=0.0,
            show_default=False,
            help="corropt: bound each optimizer run (the best answer found is used) [default: run to optimality].",
        ),
    ] = None,
    series: Annotated[
        Path | None,
        typer.Option(
            "--series",
            metavar="FILE.csv",
            dir_okay=False,
            help="Also write the step series of every policy as CSV: policy,time_s,penalty,active_corrupting,"
            "disabled,worst_fraction (a row holds until the next one of its policy, the last until the horizon).",
        ),
    ] = None,
    # The server checks the trace's length and MTTF, listing every problem with the others.
    hours: Annotated[
        float | None,
        hours_option("--hours", minimum=None, help="Server, generated trace: its length in hours [default: 720]."),
    ] = None,
    duration: Annotated[float | None, hours_option("--duration", minimum=None, hidden=True)] = None,
    mttf_hours: Annotated[
        float | None,
        hours_option(
            "--mttf-hours",
            minimum=None,
            help="Server, generated trace: mean time between corruption onsets of one link [default: 2000].",
        ),
    ] = None,
    cancel_on_interrupt: CancelOnInterruptOption = False,
    interval: IntervalOption = 1.0,
    output: OutputOption = None,
) -> None:
    """Replay a corruption trace under each policy and compare them.

    With FABRIC (a fabric on the server), the simulation runs as a server job from the fabric's current
    link states, once per --constraint x --accuracy, with a progress bar; Ctrl-C detaches (the job keeps
    running) unless --cancel-on-interrupt. The trace is --trace (uploaded) or generated from --hours,
    --mttf-hours and --seed. Output: per run and policy the penalty integral, its ratio to corropt, the
    lowest worst ToR fraction and event counts; --output json prints the job's result document, csv its
    summary table; --series writes the downsampled series as CSV.

    With --fabric-file FABRIC.json it runs offline in this process, as below.

    Links start in the document's states (admin_state disabled: disabled; oper_state down: down) with
    --state's overrides, clean. A link disabled at the start awaits repair from time 0; a link down stays
    down. switch-local: the per-switch up-link allowance; fast-checker:
    the fast checker on every arrival and after every repair; corropt: the fast checker on arrival and
    the optimizer after every repair. A disabled link is repaired after --repair-delay-hours with
    probability --accuracy, else after another round. Prints per policy the integrals over the
    window (penalty x s, corrupting and disabled link x s), the lowest worst ToR fraction, event counts
    and the penalty ratio against corropt (which runs as the reference even when not among --policy).
    """
    hours = old_spelling(hours, duration, "--hours", "--duration")
    fabric = document_file(fabric_file, fabric_old)
    for value, option in (
        (repair_delay_hours, "--repair-delay-hours"),
        (horizon_hours, "--horizon-hours"),
        (time_budget, "--time-budget"),
        (hours, "--hours"),
        (mttf_hours, "--mttf-hours"),
    ):
        finite(value, option)
    if not repair_delay_hours > 0:
        raise typer.BadParameter(f"{repair_delay_hours} is not above 0", param_hint="'--repair-delay-hours'")
    policies = list(dict.fromkeys(policy or list(Policy)))
    if share is not None and Policy.switch_local not in policies:
        raise typer.BadParameter("applies only to --policy switch-local", param_hint="'--share'")
    if (server_fabric is None) == (fabric is None):
        raise typer.BadParameter(
            "give FABRIC (a fabric on the server) or --fabric-file FABRIC.json (offline), not both",
            param_hint="'FABRIC'",
        )
    cli = get_context(ctx)
    fmt = cli.output_format(output)
    settings: dict[str, Any] = {
        "policies": policies,
        "penalty": penalty.value,
        "repair_delay_hours": repair_delay_hours,
        "seed": seed,
        "horizon_hours": horizon_hours,
        "time_budget": time_budget,
    }
    if server_fabric is not None:
        # The old offline spellings keep their old scope: offline only, pointing at the name that works here.
        for option, given, hint in (
            ("--capacity", capacity, "; use --constraint"),
            ("--fix-probability", fix_probability, "; use --accuracy"),
            ("--share", share, ""),
            ("--state", state, ""),
        ):
            if given is not None:
                raise typer.BadParameter(f"applies only offline (--fabric-file){hint}", param_hint=f"'{option}'")
        if trace is not None and (hours is not None or mttf_hours is not None):
            raise typer.BadParameter("a --trace file or a generated trace (--hours, --mttf-hours), not both")
        server_settings = {
            **settings,
            "constraints": constraint,
            "accuracies": accuracy,
            "trace": trace,
            "hours": hours,
            "mttf_hours": mttf_hours,
        }
        _simulate_on_server(cli, fmt, server_fabric, server_settings, series, interval, cancel_on_interrupt)
        return
    for option, value in (("--duration", duration), ("--hours", hours), ("--mttf-hours", mttf_hours)):
        if value:
            raise typer.BadParameter("applies only to a server simulation (FABRIC)", param_hint=f"'{option}'")
    if trace is None:
        raise typer.BadParameter("an offline simulation needs --trace TRACE.csv", param_hint="'--trace'")
    assert fabric is not None
    offline_settings = {
        **settings,
        "capacity": old_spelling(_once(constraint, "--constraint"), capacity, "--constraint", "--capacity"),
        "fix_probability": old_spelling(
            _once(accuracy, "--accuracy"), fix_probability, "--accuracy", "--fix-probability"
        ),
        "share": share,
    }
    _simulate_offline(fmt, fabric, trace, state, offline_settings, series)


def _once(values: list[float] | None, option: str) -> float | None:
    """The one value an offline run takes of an option the server sweeps."""
    if not values:
        return None
    if len(values) > 1:
        raise typer.BadParameter(
            "an offline simulation runs once: give it once (the server sweeps)", param_hint=f"'{option}'"
        )
    return values[0]


def _simulate_offline(
    fmt: OutputFormat,
    fabric: Path,
    trace: Path,
    state: Path | None,
    settings: dict[str, Any],
    series: Path | None,
) -> None:
    """Run every policy in this process (the engine) and print the comparison."""
    fix_probability = settings["fix_probability"]
    report, series_text = simulate(
        fabric,
        trace,
        state,
        policies=settings["policies"],
        capacity=settings["capacity"],
        penalty=settings["penalty"],
        share=settings["share"],
        repair_delay_hours=settings["repair_delay_hours"],
        fix_probability=0.8 if fix_probability is None else fix_probability,
        seed=settings["seed"],
        horizon_hours=settings["horizon_hours"],
        time_budget=settings["time_budget"],
        with_series=series is not None,
    )
    if series is not None and series_text is not None:
        write_atomically(series, series_text)
        steps = series_text.count("\n") - 1
        typer.echo(f"wrote {series}: {steps} steps of {len(report['policies'])} policies", err=True)
    _print_simulation(fmt, report)


SERVER_SIM_COLUMNS = (
    Column("constraint", "Constraint", render=fraction, justify="right"),
    Column("accuracy", "Accuracy", render=_number, justify="right"),
    *SIM_COLUMNS,
)


def _server_params(settings: dict[str, Any]) -> dict[str, Any]:
    """The corruption.simulate job's params; an uploaded trace is read here, before any request."""
    params: dict[str, Any] = {
        "policies": [name.value for name in settings["policies"]],
        "penalty": settings["penalty"],
        "repair_delay_hours": settings["repair_delay_hours"],
        "seed": settings["seed"],
    }
    if settings["constraints"]:
        params["constraints"] = settings["constraints"]
    if settings["accuracies"]:
        params["accuracies"] = settings["accuracies"]
    if settings["horizon_hours"] is not None:
        params["horizon_hours"] = settings["horizon_hours"]
    if settings["time_budget"] is not None:
        params["optimizer_time_budget_s"] = settings["time_budget"]
    trace: Path | None = settings["trace"]
    if trace is not None:
        params["trace"] = {"source": "uploaded", "name": trace.name, "csv": read_text(trace)}
    else:
        generated: dict[str, Any] = {"source": "generated", "seed": settings["seed"]}
        if settings["hours"] is not None:
            generated["hours"] = settings["hours"]
        if settings["mttf_hours"] is not None:
            generated["mttf_hours"] = settings["mttf_hours"]
        params["trace"] = generated
    return params


def _simulate_on_server(
    cli: CliContext,
    fmt: OutputFormat,
    fabric_reference: str,
    settings: dict[str, Any],
    series: Path | None,
    interval: float,
    cancel_on_interrupt: bool,
) -> None:
    """Submit a corruption.simulate job, follow it, and print its result (or its failure)."""
    params = _server_params(settings)
    with cli.client() as client:
        fabric = resolve_fabric(client, fabric_reference)
        job = run_job(
            client,
            "corruption.simulate",
            params,
            fabric_id=fabric["id"],
            what="simulation",
            where=f" on {fabric['name']}",
            interval=interval,
            cancel_on_interrupt=cancel_on_interrupt,
            timeout=SIM_UPLOAD_TIMEOUT_S,
        )
        download = f"/api/jobs/{job['id']}/result/"
        if series is not None:
            text = result_csv(client, job["id"], "series")
            write_atomically(series, text)
            typer.echo(f"wrote {series}: {text.count(chr(10)) - 1} series points", err=True)
        if fmt is OutputFormat.csv:
            sys.stdout.write(result_csv(client, job["id"]))
            return
    result = job["result"]
    if fmt is OutputFormat.json:
        print_json(result)
        return
    rows = [
        {"constraint": run["constraint"], "accuracy": run["accuracy"], **row, **row["counts"]}
        for run in result["runs"]
        for row in run["policies"]
    ]
    print_rows(fmt, rows, SERVER_SIM_COLUMNS, [])
    trace, job_settings = result["trace"], result["settings"]
    source = (
        f"uploaded {trace['name']}"
        if trace["source"] == "uploaded"
        else (f"generated ({trace['hours']:g} h, MTTF {trace['mttf_hours']:g} h, seed {trace['seed']})")
    )
    horizon = trace["horizon_s"]
    for line in (
        f"{result['fabric']['name']}: {trace['onsets']} onsets on {trace['links']} links, {source}, "
        f"over {horizon:.6g} s ({horizon / HOUR_S:.4g} h)",
        f"{job_settings['penalty_function']} penalty, repair after {job_settings['repair_delay_s'] / HOUR_S:g} h, "
        f"seed {job_settings['seed']}; start: {job_settings['initially_disabled']} links disabled, "
        f"{job_settings['initially_down']} down",
        f"job {job['id']}: download with GET {download}?format=json|csv",
    ):
        stdout_console().print(line, highlight=False)
