"""The capacity guard under real concurrency (issue #15, docs/capacity-guard.md).

Two gunicorn web servers (two worker processes each, four threads each) and a real Celery worker
share the test database. 50 operators' `PATCH /api/links/{id}/ {"admin_state": "disabled"}` on
every link of pod 1 of the demo fabric go to both servers at once, while telemetry batches make
12 of those links corrupting, so the worker derives them and CorrOpt's fast checker
(`corruption.decide_event`) decides in the middle of the burst. Pod 1's ToRs have 16 up-paths and
must keep 12 (constraint 0.75); p1-tor3 starts at 8 (one uplink disabled, one down), under it.

Checked afterwards: no ToR is under its constraint that was not before (the capacity API of both
servers); every refusal is a 409 naming a ToR that would fall under; every 200 is a disabled
link; and the audit rows, replayed in id order (the order of commits: every writer holds the
fabric's lock) over the starting states, never pass through a state where a ToR is under its
required paths (or, for p1-tor3, lower than it was).
"""

import datetime as dt
import json
import math
import random
import threading
import time
from collections import Counter
from pathlib import Path

import httpx
import pytest
from django.conf import settings
from django.utils import timezone
from rest_framework.authtoken.models import Token

import lightpath_engine
from accounts.roles import OPERATOR
from audit.models import AuditEvent
from corruption.models import Decision
from fabric import services as fabric_services
from fabric.models import Link
from fabric.services.engine import engine_fabric
from lightpath.tests.servers import WebServer
from telemetry.models import CorruptionEvent, Derivation

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

DEMO = Path(settings.REPO_ROOT) / "fixtures" / "data" / "demo-fb.json"
POD = 1
PATCHES = 50
CORRUPTING = 12
TELEMETRY_BATCHES = 4
SPREAD_S = 2.0  # the PATCHes start within this window
WAVES = 4
REQUEST_TIMEOUT = httpx.Timeout(20.0, connect=5.0)
DEADLINE_S = 40  # everything after the servers are up


def poll_samples(links: list[Link], when: dt.datetime, polls: int) -> list[dict]:
    """Cumulative counters at each link's Z end (the receiver of a_to_z): 100 FCS errors per
    million frames per 15-minute poll, far above the action threshold (1e-6)."""
    return [
        {"switch": link.z_switch.name, "port": link.z_port, "time": when.isoformat(),
         "in_pkts": 1_000_000 * polls, "in_fcs_errors": 100 * polls}
        for link in links
    ]  # fmt: skip


def wait_derived(fabric_id: int, batch: int, deadline: float) -> None:
    while Derivation.objects.filter(fabric_id=fabric_id, watermark__gte=batch).count() == 0:
        assert time.monotonic() < deadline, f"batch {batch} not derived in time"
        time.sleep(0.1)


def decided(fabric_id: int) -> bool:
    """Every open corruption event has its fast-checker decision, or its link is out of service
    already (its task skips it, changing nothing). Nothing brings links back in this test, so
    once true it stays true: the fast checker has nothing left to change."""
    open_events = CorruptionEvent.objects.filter(link__fabric_id=fabric_id, ended_at__isnull=True)
    waiting = (
        open_events.exclude(decisions__kind=Decision.Kind.FAST_CHECKER)
        .filter(link__admin_state=Link.AdminState.ENABLED, link__oper_state=Link.OperState.UP)
        .count()
    )
    return open_events.exists() and waiting == 0


def paths(graph: lightpath_engine.FabricGraph, states: dict[int, tuple[str, str]], index: dict[int, int]) -> dict:
    usable = [False] * graph.num_links
    for link_id, (admin_state, oper_state) in states.items():
        usable[index[link_id]] = admin_state == "enabled" and oper_state == "up"
    return {tor: available for tor, available, _total in graph.tor_capacity(usable)}


def test_fifty_manual_disables_and_the_fast_checker_at_once_keep_every_constraint(worker, make_user, tmp_path):
    started = time.monotonic()
    fabric = fabric_services.import_document(json.loads(DEMO.read_text()))
    operator = make_user(OPERATOR)
    headers = {"Authorization": f"Token {Token.objects.create(user=operator).key}"}
    pod_links = list(
        Link.objects.filter(fabric=fabric, a_switch__pod=POD).select_related("a_switch", "z_switch").order_by("id")
    )
    assert len(pod_links) == 48
    rng = random.Random(15)
    targets = [link.pk for link in pod_links] + [link.pk for link in rng.sample(pod_links, PATCHES - len(pod_links))]
    rng.shuffle(targets)
    corrupting = rng.sample([link for link in pod_links if link.usable], CORRUPTING)

    webs: list[WebServer] = []
    try:
        webs = [WebServer.start(tmp_path / name) for name in ("web-a.log", "web-b.log")]  # side by side
        for web in webs:
            web.wait_healthy(timeout=30)
        servers = [web.base for web in webs]
        servers_up_s = time.monotonic() - started
        deadline = time.monotonic() + DEADLINE_S

        # The first poll of the links that will corrupt, derived before the burst: the second
        # poll (sent during the burst) completes their window and opens their events.
        first_poll = timezone.now().replace(microsecond=0) - dt.timedelta(minutes=40)
        with httpx.Client(headers=headers, timeout=REQUEST_TIMEOUT) as client:
            response = client.post(
                f"{servers[0]}/api/telemetry/?fabric={fabric.name}",
                json={"samples": poll_samples(corrupting, first_poll, 0)},
            )
            assert response.status_code == 200, response.text
            wait_derived(fabric.pk, response.json()["batch"], deadline)
            before = client.get(f"{servers[1]}/api/fabrics/{fabric.pk}/capacity/")
            assert before.status_code == 200, before.text
        below_before = {row["name"] for row in before.json()["tors"] if row["below_constraint"]}
        assert below_before == {"p1-tor3"}
        start_states = {
            link_id: (admin, oper)
            for link_id, admin, oper in Link.objects.filter(fabric=fabric).values_list(
                "id", "admin_state", "oper_state"
            )
        }
        audit_start = AuditEvent.objects.order_by("-id").values_list("id", flat=True).first() or 0

        # The burst: 50 PATCHes and the telemetry batches, each from its own thread. The PATCHes
        # go in waves of about 12 at the same instant (a race, were the guard not serialised),
        # half of each wave to each server; the telemetry goes first, alternating servers, so its
        # derivation and the fast checker's decisions land among the waves.
        second_poll = first_poll + dt.timedelta(minutes=15)
        jobs: list[tuple[str, object]] = [("patch", link_id) for link_id in targets]
        for i in range(TELEMETRY_BATCHES):
            jobs.append(("telemetry", corrupting[i::TELEMETRY_BATCHES]))
        waves = [0.2 + SPREAD_S * i / WAVES for i in range(WAVES)]
        offsets = [waves[i % WAVES] for i in range(len(targets))] + [0.1 * i for i in range(TELEMETRY_BATCHES)]
        server_of = [i // WAVES % 2 for i in range(len(targets))] + [i % 2 for i in range(TELEMETRY_BATCHES)]
        results: list[tuple[str, object, int, dict, float] | None] = [None] * len(jobs)
        errors: list[BaseException] = []
        go = threading.Barrier(len(jobs) + 1)

        def run(number: int, kind: str, payload) -> None:
            base = servers[server_of[number]]
            try:
                with httpx.Client(headers=headers, timeout=REQUEST_TIMEOUT) as client:
                    go.wait(timeout=10)
                    time.sleep(offsets[number])
                    if kind == "patch":
                        response = client.patch(f"{base}/api/links/{payload}/", json={"admin_state": "disabled"})
                    else:
                        response = client.post(
                            f"{base}/api/telemetry/?fabric={fabric.name}",
                            json={"samples": poll_samples(payload, second_poll, 1)},
                        )
                body = (
                    response.json() if response.headers.get("content-type", "").startswith("application/json") else {}
                )
                results[number] = (kind, payload, response.status_code, body, time.monotonic())
            except BaseException as exc:  # reported below, with the servers' logs
                errors.append(exc)

        threads = [threading.Thread(target=run, args=(n, kind, payload)) for n, (kind, payload) in enumerate(jobs)]
        for thread in threads:
            thread.start()
        go.wait(timeout=10)
        burst_start = time.monotonic()
        burst_start_wall = timezone.now()
        for thread in threads:
            thread.join(timeout=max(deadline - time.monotonic(), 0.1))
        assert not any(thread.is_alive() for thread in threads), "requests still running at the deadline"
        burst_s = time.monotonic() - burst_start
        assert not errors, errors
        assert all(results), "a request did not answer"

        statuses = Counter((kind, status) for kind, _, status, _, _ in results)
        unexpected = [r for r in results if (r[0], r[2]) not in {("patch", 200), ("patch", 409), ("telemetry", 200)}]
        assert not unexpected, (unexpected, "\n".join(web.log_tail() for web in webs))
        last_patch_answered = max(r[4] for r in results if r[0] == "patch")
        batches = [r[3]["batch"] for r in results if r[0] == "telemetry"]

        # Let the worker derive every batch and the fast checker decide every event.
        wait_derived(fabric.pk, max(batches), deadline)
        while not decided(fabric.pk):
            assert time.monotonic() < deadline, "the fast checker did not decide every event in time"
            time.sleep(0.1)
        decisions = list(Decision.objects.filter(fabric=fabric, kind=Decision.Kind.FAST_CHECKER).order_by("id"))
        settled_s = time.monotonic() - burst_start

        # At the end, through both servers: nobody new under the constraint.
        finals = []
        for base in servers:
            answer = httpx.get(f"{base}/api/fabrics/{fabric.pk}/capacity/", headers=headers, timeout=REQUEST_TIMEOUT)
            assert answer.status_code == 200, answer.text
            finals.append(answer.json())
        assert finals[0]["tors"] == finals[1]["tors"]
        below_after = {row["name"] for row in finals[0]["tors"] if row["below_constraint"]}
        assert below_after <= below_before, below_after - below_before
        assert fabric_services.fabric_capacity(fabric)["tors"] == finals[0]["tors"]
    finally:
        for web in webs:
            web.stop()

    state = engine_fabric(fabric)
    tor_names = {state.switch_ids[tor]: state.switch_names[tor] for tor, _, _ in state.graph.tor_capacity()}
    final_states = dict(Link.objects.filter(fabric=fabric).values_list("id", "admin_state"))

    # Every 200 is a link really disabled; every refusal a 409 naming a ToR that would fall under.
    accepted = [r for r in results if r[0] == "patch" and r[2] == 200]
    refused = [r for r in results if r[0] == "patch" and r[2] == 409]
    for _, link_id, _, body, _ in accepted:
        assert body["id"] == link_id and body["admin_state"] == "disabled"
        assert final_states[link_id] == "disabled"
    for _, link_id, _, body, _ in refused:
        assert body["links"] == [link_id], body
        assert body["blocking_tors"], body
        for row in body["blocking_tors"]:
            assert tor_names[row["switch"]] == row["name"]
            assert row["paths_after"] < row["required_paths"] or row["paths_after"] < row["paths_before"], row
        assert body["detail"].startswith(f"Refused: {body['blocking_tors'][0]['name']} would fall to"), body

    # Replay the audit rows in id order over the starting states: each row's "before" is the
    # state its predecessors left (one serial history), and no state on the way has a ToR under
    # its required paths, or lower than it was for a ToR that started under them.
    rows = list(AuditEvent.objects.filter(object_type="fabric.link", id__gt=audit_start).order_by("id"))
    index = state.link_index
    required = {tor: math.ceil(state.constraint(tor) * total - 1e-9) for tor, _, total in state.graph.tor_capacity()}
    session_required = {tor: req for tor, _, _, req in state.session().tor_paths()}
    assert required == session_required
    replayed = dict(start_states)
    current = paths(state.graph, replayed, index)
    kinds = Counter()
    for row in rows:
        link_id = row.object_id
        assert (row.before["admin_state"], row.before["oper_state"]) == replayed[link_id], row.pk
        replayed[link_id] = (row.after["admin_state"], row.after["oper_state"])
        kinds[("operator" if row.user_id == operator.pk else "system", row.after["admin_reason"] or row.note)] += 1
        after = paths(state.graph, replayed, index)
        for tor, available in after.items():
            floor = min(required[tor], current[tor])
            assert available >= floor, (
                f"audit row {row.pk} (link {link_id}): {state.switch_names[tor]} at {available} paths, "
                f"under {floor} (required {required[tor]})"
            )
        current = after
    assert replayed == {
        link_id: (admin, oper)
        for link_id, admin, oper in Link.objects.filter(fabric=fabric).values_list("id", "admin_state", "oper_state")
    }

    # The history is what the answers say: the operator's writes are links that answered 200;
    # the system's are the fast checker's disables.
    operator_writes = [row.object_id for row in rows if row.user_id == operator.pk]
    assert len(operator_writes) == len(set(operator_writes))
    assert set(operator_writes) <= {r[1] for r in accepted}
    system_writes = {row.object_id for row in rows if row.user_id is None}
    assert system_writes == {d.link_id for d in decisions if d.action == Decision.Action.DISABLED}
    assert set(kinds) <= {("operator", ""), ("system", "corruption")}, kinds

    # The fast checker really decided during the burst, between the operators' changes.
    during = [
        d for d in decisions if d.created <= burst_start_wall + dt.timedelta(seconds=last_patch_answered - burst_start)
    ]
    assert during, "no fast-checker decision landed while the PATCHes were being answered"
    actions = Counter(d.action for d in decisions)
    elapsed = time.monotonic() - started
    timeline = sorted(
        [(row.timestamp, "op" if row.user_id == operator.pk else "cc") for row in rows]
        + [(d.created, f"fc-{d.action}") for d in decisions]
    )
    print(" ".join(f"{(t - burst_start_wall).total_seconds():.2f}:{what}" for t, what in timeline))
    print(
        f"\n{statuses[('patch', 200)]} PATCH 200 ({len(operator_writes)} changed a link), {statuses[('patch', 409)]} "
        f"PATCH 409, {statuses[('telemetry', 200)]} telemetry batches; fast checker: {dict(actions)} "
        f"({len(during)} while PATCHes were answered); audit rows replayed: {len(rows)}; servers up in "
        f"{servers_up_s:.1f} s, burst {burst_s:.2f} s, all decided {settled_s:.2f} s after its start, test "
        f"{elapsed:.1f} s; under the constraint at the end: {sorted(below_after)}"
    )
