"""One contract per answer: every success answer and every job kind's result is typed in OpenAPI,
and real answers match what the document says (the UI's types are generated from it).

- `test_no_untyped_answers` walks the document and lists every 2xx answer, component or field that
  is an untyped object (`{}`, or `type: object` without properties and with any values), so that a
  new one fails here instead of reaching the UI as `Record<string, unknown>`.
- `test_every_job_kind_declares_its_result`: each registered kind has a result serializer
  (jobs/api/results.py), which the Job's `result` lists.
- `test_real_answers_match_the_document`: answers of the typed endpoints and results of the typed
  job kinds, produced by the real code on the test database, validate against the document.
"""

import json

import jsonschema
import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

# Free-form by nature, each for a reason: not shapes the server could declare.
FREE_FORM = {
    # Any model's fields before and after a change: the audit log records what it is given.
    "#AuditEvent.before",
    "#AuditEvent.after",
    # A job's input, whose shape each kind checks (validate); write-only: in bodies, never answered.
    "#JobRequest.params",
    "#ScheduleRequest.params",
}

# Typed by no one yet: this list only shrinks (the test fails when an entry becomes typed, so that
# it is removed, and when a new untyped answer appears).
NOT_YET_TYPED: set[str] = set()

# Job kinds whose result has no serializer yet (jobs/api/results.py): only shrinks.
KINDS_NOT_YET_TYPED: set[str] = set()


def _document() -> dict:
    from drf_spectacular.generators import SchemaGenerator
    from rest_framework.renderers import JSONRenderer

    return json.loads(JSONRenderer().render(SchemaGenerator().get_schema(request=None, public=True)))


def _untyped(schema) -> bool:
    if not isinstance(schema, dict) or any(key in schema for key in ("$ref", "oneOf", "anyOf", "allOf", "enum")):
        return False
    kind = schema.get("type")
    if kind is None:
        return True
    return kind == "object" and not schema.get("properties") and schema.get("additionalProperties", True) in (True, {})


def _untyped_places(schema, where: str):
    if _untyped(schema):
        yield where
        return
    if not isinstance(schema, dict):
        return
    for key in ("oneOf", "anyOf", "allOf"):
        for part in schema.get(key, []):
            yield from _untyped_places(part, f"{where}/{key}")
    for name, part in (schema.get("properties") or {}).items():
        yield from _untyped_places(part, f"{where}.{name}")
    if isinstance(schema.get("items"), dict):
        yield from _untyped_places(schema["items"], f"{where}[]")
    if isinstance(schema.get("additionalProperties"), dict):
        yield from _untyped_places(schema["additionalProperties"], f"{where}{{}}")


def untyped_places(document: dict) -> set[str]:
    """`METHOD path status` for answers, `#Component.field` for components (the error shapes aside)."""
    places: set[str] = set()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for status, response in operation.get("responses", {}).items():
                if not status.startswith("2"):
                    continue
                for media, content in (response.get("content") or {}).items():
                    if media == "application/json":
                        places.update(_untyped_places(content.get("schema", {}), f"{method.upper()} {path} {status}"))
    for name, schema in document["components"]["schemas"].items():
        if name != "ValidationError":
            places.update(_untyped_places(schema, f"#{name}"))
    return places


def test_no_untyped_answers():
    found = untyped_places(_document())
    new = sorted(found - FREE_FORM - NOT_YET_TYPED)
    typed_now = sorted(NOT_YET_TYPED - found)
    assert not new, "untyped in OpenAPI (declare a serializer or extend_schema):\n" + "\n".join(new)
    assert not typed_now, "typed now: remove from NOT_YET_TYPED:\n" + "\n".join(typed_now)


def test_every_job_kind_declares_its_result():
    from jobs.api.results import component_name, result_serializers
    from jobs.registry import KINDS

    declared = result_serializers()
    assert sorted(set(KINDS) - set(declared) - KINDS_NOT_YET_TYPED) == [], "declare their results"
    assert sorted(KINDS_NOT_YET_TYPED & set(declared)) == [], "typed now: remove from KINDS_NOT_YET_TYPED"
    assert sorted(set(declared) - set(KINDS)) == [], "a result serializer names a kind that does not exist"
    schemas = _document()["components"]["schemas"]
    assert schemas["Job"]["properties"]["result"]["allOf"] == [{"$ref": "#/components/schemas/JobResult"}]
    refs = {part["$ref"].rsplit("/", 1)[1] for part in schemas["JobResult"]["anyOf"] if "$ref" in part}
    assert refs == {component_name(shape) for shape in declared.values()}


# --- Real answers against the document --------------------------------------------------------------


def _nullable_to_json_schema(schema):
    """OpenAPI 3.0's `nullable: true` as JSON Schema (jsonschema knows no `nullable`)."""
    if isinstance(schema, list):
        return [_nullable_to_json_schema(part) for part in schema]
    if not isinstance(schema, dict):
        return schema
    converted = {key: _nullable_to_json_schema(value) for key, value in schema.items() if key != "nullable"}
    if schema.get("nullable"):
        return {"anyOf": [converted, {"type": "null"}]}
    return converted


class Contract:
    """Validates answers against the document's response schema of an operation."""

    def __init__(self, document: dict):
        self.document = _nullable_to_json_schema(document)

    def check(self, answer, path: str, method: str = "get", status: str = "200"):
        schema = self.document["paths"][path][method]["responses"][status]["content"]["application/json"]["schema"]
        self._validate(answer, schema, f"{method.upper()} {path} {status}")

    def check_component(self, value, component: str):
        self._validate(value, {"$ref": f"#/components/schemas/{component}"}, component)

    def _validate(self, value, schema, where: str):
        validator = jsonschema.Draft4Validator({**schema, "components": self.document["components"]})
        errors = sorted(validator.iter_errors(value), key=lambda error: list(error.absolute_path))
        problems = [f"{'/'.join(map(str, error.absolute_path)) or '(root)'}: {error.message[:300]}" for error in errors]
        assert not problems, f"{where} answers outside its contract:\n" + "\n".join(problems[:20])


@pytest.fixture(scope="module")
def contract():
    return Contract(_document())


@pytest.fixture
def admin(db):
    client = APIClient()
    client.force_authenticate(get_user_model().objects.create_superuser("contract-admin", password="pw-for-tests"))
    return client


def _ok(response):
    assert response.status_code == 200, response.content[:500]
    return response.json()


JOB_DATABASES = ["default", "progress"]


def _run_job(client, kind: str, params: dict, fabric: int | None = None) -> dict:
    """Submit through the API, run in this process (as the worker would), read the job back."""
    from jobs import services

    body = {"kind": kind, "params": params, **({"fabric": fabric} if fabric else {})}
    response = client.post("/api/jobs/", body, format="json")
    assert response.status_code == 202, response.content[:500]
    job_id = response.json()["id"]
    assert services.run(job_id) == "succeeded"
    return _ok(client.get(f"/api/jobs/{job_id}/"))


def test_reconfig_calculators(admin, contract):
    rack_set = {"static_uplinks": 2, "cables": [[1, 0], [1, 1]], "cs_uplinks": [1, 1], "capacity_gbps": 100}
    infeasible = _ok(admin.post("/api/larry/check/", {"rack_set": rack_set, "uplinks": [2, 1]}, format="json"))
    assert infeasible["min_cut"] is not None
    contract.check(infeasible, "/api/larry/check/", "post")
    feasible = _ok(admin.post("/api/larry/check/", {"rack_set": rack_set, "uplinks": [1, 0]}, format="json"))
    contract.check(feasible, "/api/larry/check/", "post")
    size = {"k": 4, "mtbf_hours": 1000, "mttr_hours": 10, "monte_carlo": {"seed": 1, "horizon_hours": 1e5}}
    contract.check(_ok(admin.post("/api/sharebackup/size/", size, format="json")), "/api/sharebackup/size/", "post")
    contract.check(_ok(admin.post("/api/reconfig/costs/", {}, format="json")), "/api/reconfig/costs/", "post")


@pytest.mark.django_db(transaction=True, databases=JOB_DATABASES)
def test_reconfig_job_results(contract, django_user_model):
    client = APIClient()
    client.force_authenticate(django_user_model.objects.create_superuser("contract-jobs", password="pw-for-tests"))
    events = {"source": "synthetic", "length": 30, "seed": 7}
    job = _run_job(client, "sharebackup.plan", {"k": 4, "pods": 2, "backups": 1, "events": events})
    contract.check(job, "/api/jobs/{id}/")
    contract.check_component(job["result"], "ShareBackupResult")
    contract.check(_ok(client.get(f"/api/jobs/{job['id']}/result/")), "/api/jobs/{id}/result/")
    lines = ["time_s,rack,ingress_bytes,egress_bytes"]
    for step in range(6):
        for rack in ("r-a", "r-b"):
            hot = 900 if rack == "r-a" and step >= 3 else 100
            lines.append(f"{step * 0.5},{rack},{int(step * 0.5 * hot * 1e9 / 8)},0")
    params = {
        "rack_set": {
            "static_uplinks": 2, "cables": [[2, 2], [2, 2]], "cs_uplinks": [2, 2], "capacity_gbps": 100,
            "racks": ["r-a", "r-b"],
        },
        "counters": {"source": "uploaded", "name": "counters.csv", "csv": "\n".join(lines)},
    }  # fmt: skip
    job = _run_job(client, "larry.run", params)
    assert job["result"]["changes"], "a run without changes would leave the change shape unchecked"
    contract.check(job, "/api/jobs/{id}/")
    contract.check_component(job["result"], "LarryResult")


@pytest.mark.django_db(transaction=True, databases=JOB_DATABASES)  # the optimizer job is queued on commit
def test_fabric_answers(admin, contract, small_fabric):
    fabric = f"/api/fabrics/{small_fabric.pk}"
    contract.check(_ok(admin.get(f"{fabric}/topology/")), "/api/fabrics/{id}/topology/")
    contract.check(_ok(admin.get(f"{fabric}/capacity/")), "/api/fabrics/{id}/capacity/")
    contract.check(_ok(admin.get(f"{fabric}/constraints/")), "/api/fabrics/{id}/constraints/")
    tor = small_fabric.switches.filter(tier=0).order_by("name").first().name
    changed = _ok(admin.patch(f"{fabric}/constraints/", {"overrides": {tor: 0.5}}, format="json"))
    assert changed["changes"] and changed["optimizer_job"] is not None
    contract.check(changed, "/api/fabrics/{id}/constraints/", "patch")
    contract.check(_ok(admin.get(f"{fabric}/constraints/")), "/api/fabrics/{id}/constraints/")
    contract.check(_ok(admin.get(f"{fabric}/export/")), "/api/fabrics/{id}/export/")


@pytest.mark.django_db(transaction=True, databases=JOB_DATABASES)
def test_fabric_job_results(contract, django_user_model, small_document):
    client = APIClient()
    client.force_authenticate(django_user_model.objects.create_superuser("contract-jobs", password="pw-for-tests"))
    imported = _run_job(client, "fabric.import", {"document": small_document})
    contract.check(imported, "/api/jobs/{id}/")
    contract.check_component(imported["result"], "ImportResult")
    report = _run_job(client, "fabric.capacity_report", {}, fabric=imported["result"]["fabric"])
    contract.check(report, "/api/jobs/{id}/")
    contract.check_component(report["result"], "CapacityReportResult")


def test_corruption_answers(admin, contract, small_fabric):
    from corruption import optimizer
    from corruption.tests.test_optimizer import link, open_event
    from corruption.tests.test_tickets import disabled_ticket

    ticket = disabled_ticket(small_fabric)
    # The optimizer's best set on the small fabric at 0.5: three links disabled, one kept for t1.
    small_fabric.capacity_constraint = 0.5
    small_fabric.save()
    for (switch, port), rate in {("t0", "up0"): 2e-4, ("t1", "up1"): 5e-4, ("f0", "u1"): 5e-4}.items():
        open_event(link(small_fabric, switch, port), rate=rate)
    result = optimizer.optimize_fabric(small_fabric.pk)
    assert result["disabled"] and result["kept"]
    contract.check_component(result, "OptimizerResult")

    decisions = _ok(admin.get("/api/decisions/", {"fabric": small_fabric.pk}))
    assert any(decision["affected"] for decision in decisions["results"])
    contract.check(decisions, "/api/decisions/")
    detail = _ok(admin.get(f"/api/tickets/{ticket.pk}/"))
    assert detail["recommendation"] is not None and detail["steps"][0]["evidence"]
    contract.check(detail, "/api/tickets/{id}/")
    contract.check(_ok(admin.post(f"/api/tickets/{ticket.pk}/start/")), "/api/tickets/{id}/start/", "post")
    acted = _ok(admin.post(f"/api/tickets/{ticket.pk}/act/", {"action_taken": "clean_fiber"}, format="json"))
    assert acted["steps"][0]["action_taken"] == "clean_fiber" and acted["message"]
    contract.check(acted, "/api/tickets/{id}/act/", "post")
    for query in ({}, {"fabric": small_fabric.pk}):
        contract.check(_ok(admin.get("/api/tickets/metrics/", query)), "/api/tickets/metrics/")
    kept = link(small_fabric, "t1", "up1").pk
    for query in ({}, {"loss_rate": 0.01}):
        contract.check(_ok(admin.get(f"/api/links/{kept}/corropt-check/", query)), "/api/links/{id}/corropt-check/")
    disabled = ticket.link_id
    contract.check(_ok(admin.get(f"/api/links/{disabled}/corropt-check/")), "/api/links/{id}/corropt-check/")


@pytest.mark.django_db(transaction=True, databases=JOB_DATABASES)
def test_rail_job_results(contract, django_user_model, small_fabric):
    import datetime as dt

    from django.utils import timezone

    from planning.tests.conftest import seeding
    from planning.tests.test_classes import measure

    seeding.seed(apps, None)  # the catalog the migration seeds: an earlier transactional test flushed it
    client = APIClient()
    client.force_authenticate(django_user_model.objects.create_superuser("contract-jobs", password="pw-for-tests"))
    expected = {"generate": {"k": 4, "max_length_m": 600}, "nrb": 0.95}
    sampled = {"generate": {"k": 4, "max_length_m": 600, "lengths": "sampled", "seed": 3}, "nrb": 0.95}
    for params in (expected, sampled):
        plan = _run_job(client, "rail.plan", params)
        contract.check(plan, "/api/jobs/{id}/")
        contract.check_component(plan["result"], "RailPlanResult")
        contract.check(_ok(client.get(f"/api/rail/plans/{plan['id']}/")), "/api/rail/plans/{job_id}/")
        rows = _ok(client.get(f"/api/rail/plans/{plan['id']}/links/"))
        contract.check(rows, "/api/rail/plans/{job_id}/links/")
    assert rows["results"], "a plan of sampled lengths has per-link rows"
    measure(small_fabric, timezone.now() - dt.timedelta(hours=2))
    classes = _run_job(client, "rail.classes", {}, fabric=small_fabric.pk)
    assert classes["result"]["classes"]
    contract.check(classes, "/api/jobs/{id}/")
    contract.check_component(classes["result"], "RailClassesResult")


@pytest.mark.django_db(transaction=True, databases=JOB_DATABASES)
def test_simulation_result(contract, django_user_model, small_fabric):
    client = APIClient()
    client.force_authenticate(django_user_model.objects.create_superuser("contract-jobs", password="pw-for-tests"))
    uploaded = {"source": "uploaded", "name": "one.csv", "csv": "time_s,link,loss_rate\n0,t0:up0,0.001\n"}
    generated = {"source": "generated", "hours": 500, "mttf_hours": 100, "seed": 7}
    for trace in (uploaded, generated):
        params = {"constraints": [0.5, 0.75], "accuracies": [0.8], "trace": trace, "horizon_hours": 10}
        job = _run_job(client, "corruption.simulate", params, fabric=small_fabric.pk)
        contract.check(job, "/api/jobs/{id}/")
        contract.check_component(job["result"], "SimulationResult")


@pytest.mark.django_db(transaction=True, databases=JOB_DATABASES)
def test_circuit_answers(admin, contract, small_fabric):
    from circuits.models import CircuitSwitch
    from circuits.services import all_tor_attachments, replace_attachments
    from circuits.tests.test_api import DEMAND_CSV, run_schedule
    from fabric.models import Switch

    fabric = small_fabric
    for i in range(3, 6):
        Switch.objects.create(fabric=fabric, name=f"t{i}", tier=0, pod=1)
    switch = CircuitSwitch.objects.create(fabric=fabric, name="ocs-1", zone="z", port_count=8, capacity_gbps=10)
    replace_attachments(switch, all_tor_attachments(fabric))
    demand = admin.post("/api/demands/", {"fabric": fabric.pk, "name": "d", "csv": DEMAND_CSV}, format="json")
    assert demand.status_code == 201, demand.content[:300]
    demand_id = demand.json()["id"]
    contract.check(_ok(admin.get(f"/api/demands/{demand_id}/")), "/api/demands/{id}/")
    for query in ({"window": 0}, {"window": 2, "circuit_switch": switch.pk}):
        contract.check(_ok(admin.get(f"/api/demands/{demand_id}/matrix/", query)), "/api/demands/{id}/matrix/")
    contract.check(_ok(admin.get(f"/api/circuit-switches/{switch.pk}/")), "/api/circuit-switches/{id}/")
    job = run_schedule(admin, demand_id, switch, min_demand_bytes=0)
    contract.check(_ok(admin.get("/api/circuit-schedules/")), "/api/circuit-schedules/")
    contract.check(_ok(admin.get(f"/api/circuit-schedules/{job.pk}/")), "/api/circuit-schedules/{id}/")
    contract.check_component(_ok(admin.get(f"/api/jobs/{job.pk}/"))["result"], "ScheduleResult")
    groups = [{"name": "pair", "pairs": [["t0", "t1"]], "bonus_bytes": 1000000}]
    job = run_schedule(admin, demand_id, switch, min_demand_bytes=0, compare=["greedy"], edge_groups=groups)
    contract.check_component(_ok(admin.get(f"/api/jobs/{job.pk}/"))["result"], "ScheduleResult")


def test_telemetry_answers(admin, contract, small_fabric):
    import datetime as dt

    from django.utils import timezone

    from telemetry.services import maintenance
    from telemetry.tests.test_api import corrupting_polls, iso, now_minus, push, the_link

    start = now_minus(180).replace(minute=0, second=0)
    polls = corrupting_polls(start, 9, errors=3)
    for i, poll in enumerate(polls):
        poll.update(out_pkts=2_000_000 * i, out_discards=3 * i)
    polls.append(
        {"time": iso(start + dt.timedelta(minutes=5)), "switch": "t0", "port": "up0", "output_power_dbm": -1.0}
    )
    pushed = push(admin, {"samples": polls})
    ingested = _ok(pushed)
    assert ingested["inserted"] == 10 and ingested["derivation"] == "queued"
    contract.check(ingested, "/api/telemetry/", "post")
    maintenance.rollup_hours(start, timezone.now())
    link = the_link(small_fabric).pk
    for resolution in ("raw", "hour"):
        answer = _ok(admin.get(f"/api/links/{link}/telemetry/", {"from": iso(start), "resolution": resolution}))
        assert answer["resolution"] == resolution and answer["loss"]["a_to_z"]["corruption"]["rate"]
        contract.check(answer, "/api/links/{id}/telemetry/")
    assert answer["status"]["sides"]["z"]["input_power_dbm"] == -2.5
    assert answer["signatures"]["a_to_z"]["corruption"]["intervals"] == 8
    never_polled = small_fabric.links.exclude(pk=link).first().pk
    contract.check(_ok(admin.get(f"/api/links/{never_polled}/telemetry/")), "/api/links/{id}/telemetry/")


def test_demand_rows_upload(admin, contract, small_fabric):
    from fabric.models import Switch

    Switch.objects.create(fabric=small_fabric, name="t3", tier=0, pod=1)
    rows = [
        {"src": "t0", "dst": "t3", "bytes": 1000, "window_start": 0},
        {"src": "t3", "dst": "t0", "bytes": 500, "window_start": "1970-01-01T00:00:10Z"},
    ]
    body = {"fabric": small_fabric.pk, "name": "rows", "rows": rows}
    contract.check_component(body, "DemandUploadRequest")
    response = admin.post("/api/demands/", body, format="json")
    assert response.status_code == 201, response.content[:300]
    assert response.json()["row_count"] == 2
    contract.check(response.json(), "/api/demands/", "post", "201")


def test_recovery_answers(admin, contract):
    """The capacity recovery on the demo after a link went down (maintenance/tests/test_recovery.py):
    the proposal, its 409 on a stale list, and the applied answer."""
    from django.utils import timezone

    from corruption import services as corruption
    from fabric import services as fabric_services
    from fabric.models import Link
    from fabric.services import link_state, live
    from lightpath.settings import REPO_ROOT
    from telemetry.models import CorruptionEvent

    live.forget()
    demo = fabric_services.import_document(json.loads((REPO_ROOT / "fixtures" / "data" / "demo-fb.json").read_text()))
    lossy, down = (
        Link.objects.get(fabric=demo, a_switch__name="p1-tor0", a_port=port) for port in ("eth2/1", "eth2/2")
    )
    now = timezone.now()
    event = CorruptionEvent.objects.create(
        link=lossy, direction="a_to_z", rate=1e-4, last_rate=1e-4, peak_rate=1e-4, first_seen=now, last_seen=now
    )
    assert corruption.decide_event(event.pk).decision.action == "disabled"
    link_state.set_oper_states(demo.pk, {down.pk: "down"})
    path = "/api/fabrics/{id}/recovery/"
    url = path.format(id=demo.pk)
    proposal = _ok(admin.get(url))
    assert [link["id"] for link in proposal["links"]] == [lossy.pk] and proposal["unreachable_tors"]
    contract.check(proposal, path)
    stale = admin.post(url, {"links": [lossy.pk + 1]}, format="json")
    assert stale.status_code == 409
    contract.check(stale.json(), path, "post", "409")
    applied = _ok(admin.post(url, {"links": [lossy.pk]}, format="json"))
    contract.check(applied, path, "post")
    live.forget()
