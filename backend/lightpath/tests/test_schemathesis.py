"""schemathesis over every operation of our own OpenAPI document, against a live gunicorn.

The server runs `lightpath.wsgi` on the test database (as run-stack.sh starts it) and serves the
document at /api/schema/; schemathesis reads it from there and sends generated requests (valid
and invalid: wrong types, out-of-range numbers, missing fields, odd query strings) to every
operation as an admin. Every response must be documented and match its declared shape:
  - no 5xx;
  - the status code is one the operation documents (its 4xx included);
  - the content type and the body match the document's schema for that status.

The data set is the small two-pod fabric with a disabled link's decision, event and ticket, a
finished RAIL plan, its audit rows and the catalog, so that path parameters of those kinds point
at real objects most of the time (and at missing ones sometimes, for the 404s); kinds not seeded
(demands, schedules, webhooks, ...) get generated ids, their operations answer 404 or create
their own. DELETEs go to a second, expendable fabric, so that the operations after them still
find the small fabric. Generation is derandomized with a fixed seed: the same requests every run.

Nothing is excluded. No Celery worker runs: jobs that operations enqueue stay queued (their
answers are what is checked); the jobs the data set needs are run in this process.
"""

import json
import zlib

import httpx
import pytest
import schemathesis
from django.contrib.auth import get_user_model
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from rest_framework.authtoken.models import Token

from .servers import web_server

# django_db: without one marked test in the session, pytest-django creates no test database and
# the connection stays on the development database (the seed and the server would use it). Each
# case's own transaction is empty (the requests go to gunicorn); the data set is committed once.
pytestmark = [pytest.mark.integration, pytest.mark.django_db]

MAX_EXAMPLES = 5
SEED = 16
CHECKS = (
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_schema_conformance",
    "response_headers_conformance",
)


def _seed() -> dict:
    """The objects operations act on: `real` for reads and changes, `spare` for DELETEs."""
    import importlib

    from django.apps import apps

    from audit.models import AuditEvent
    from corruption.tests.test_tickets import disabled_ticket
    from fabric import services as fabric_services
    from fabric.models import Link, Switch, Transceiver, TransceiverModel
    from fabric.tests.documents import SMALL_DOCUMENT
    from jobs import services as jobs

    importlib.import_module("migrations.fabric.0005_seed_rail_catalog").seed(apps, None)
    admin = get_user_model().objects.create_superuser("schema-admin", password="pw-for-tests-only")
    token = Token.objects.create(user=admin).key

    fabric = fabric_services.import_document(json.loads(json.dumps(SMALL_DOCUMENT)), user=admin)
    spare_fabric = fabric_services.import_document({**json.loads(json.dumps(SMALL_DOCUMENT)), "name": "spare"})
    ticket = disabled_ticket(fabric)
    plan = jobs.submit("rail.plan", user=admin, params={"generate": {"k": 4, "max_length_m": 600}, "nrb": 0.95})
    assert jobs.run(plan.pk) == "succeeded", type(plan).objects.get(pk=plan.pk).error
    link = Link.objects.filter(fabric=fabric).order_by("id").first()
    real = {
        "fabrics": fabric.pk,
        "switches": Switch.objects.filter(fabric=fabric).order_by("id").first().pk,
        "links": link.pk,
        "tickets": ticket.pk,
        "decisions": ticket.decision_id,
        "jobs": plan.pk,
        "plans": plan.pk,
        "corruption-events": ticket.decision.event_id,
        "audit": AuditEvent.objects.order_by("id").first().pk,
        "transceivers": Transceiver.objects.filter(link__fabric=fabric).order_by("id").first().pk,
        "users": admin.username,
        "transceiver-models": TransceiverModel.objects.order_by("id").first().pk,
    }
    spare = {
        "fabrics": spare_fabric.pk,
        "switches": Switch.objects.filter(fabric=spare_fabric).order_by("id").first().pk,
        "links": Link.objects.filter(fabric=spare_fabric).order_by("id").first().pk,
    }
    return {"token": token, "real": real, "spare": spare}


def _openapi_document() -> dict:
    """The document /api/schema/ serves, generated in this process at collection time: pytest
    makes one test per operation from it (the live server's copy is compared in `live_api`)."""
    from drf_spectacular.generators import SchemaGenerator
    from rest_framework.renderers import JSONRenderer

    return json.loads(JSONRenderer().render(SchemaGenerator().get_schema(request=None, public=True)))


DOCUMENT = _openapi_document()


@pytest.fixture(scope="module")
def live_api(django_db_setup, django_db_blocker, tmp_path_factory):
    """gunicorn on the test database with the data set; the database is emptied afterwards, as
    after any transactional test."""
    from django.core.management import call_command

    with django_db_blocker.unblock():
        try:
            call_command("flush", interactive=False, verbosity=0)  # rows an aborted run left behind
            data = _seed()
            log = tmp_path_factory.mktemp("schemathesis") / "web.log"
            with web_server(log, threads=2) as server:
                served = httpx.get(
                    f"{server.base}/api/schema/",
                    headers={"Authorization": f"Token {data['token']}", "Accept": "application/vnd.oai.openapi+json"},
                )
                assert served.status_code == 200 and served.json() == DOCUMENT, "the server serves another document"
                yield {**data, "base": server.base, "log": log}
        finally:
            call_command("flush", interactive=False, verbosity=0)


# Remote write's body is a binary protobuf (`format: binary`): generated bytes are sent as they are,
# as for application/octet-stream (they are rarely snappy, so the documented 400 answers them).
schemathesis.serializer.alias("application/x-protobuf", "application/octet-stream")

schema = schemathesis.openapi.from_dict(
    DOCUMENT,
    config=schemathesis.config.SchemathesisConfig.from_dict(
        {
            "seed": SEED,
            "generation": {"max-examples": MAX_EXAMPLES, "deterministic": True},
            "checks": {"enabled": False, **{name: {"enabled": True} for name in CHECKS}},
        }
    ),
)


def _point_at_objects(case, live_api) -> None:
    """Most path parameters name a real object (a spare one for DELETE); about one in four keeps
    its generated value, for the 404s. Chosen by a checksum of the value: deterministic."""
    parts = [part for part in case.operation.path.split("/") if part and part != "api"]
    resource = "plans" if parts[:2] == ["rail", "plans"] else parts[0]
    objects = live_api["spare"] if case.method.upper() == "DELETE" else live_api["real"]
    for name, value in (case.path_parameters or {}).items():
        if zlib.crc32(repr(value).encode()) % 4 == 0:
            continue
        if resource in objects and objects[resource] is not None:
            case.path_parameters[name] = objects[resource]


@schema.parametrize()
@hypothesis_settings(
    max_examples=MAX_EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_answers_as_documented(case, live_api):
    _point_at_objects(case, live_api)
    case.call_and_validate(base_url=live_api["base"], headers={"Authorization": f"Token {live_api['token']}"})
