"""Lists as tables: `?ordering=` refuses what it cannot sort by, and `?format=csv` (or
`Accept: text/csv`) streams every matching row, not one page, with the list's permission."""

import csv
import io

import pytest
from django.http import StreamingHttpResponse

from audit.models import AuditEvent
from fabric.models import Link
from fabric.tests.factories import FabricFactory, LinkFactory, SwitchFactory
from lightpath.api.pagination import LimitOffsetPagination

PAGE = LimitOffsetPagination.default_limit


def csv_rows(response) -> list[dict[str, str]]:
    assert response.status_code == 200, response.content
    assert isinstance(response, StreamingHttpResponse)  # streamed, not built in memory
    assert response["Content-Type"].startswith("text/csv")
    body = b"".join(response.streaming_content).decode()  # type: ignore[arg-type]  # a sync view streams bytes
    return list(csv.DictReader(io.StringIO(body)))


@pytest.fixture
def many_links(db):
    """More links than a page: 60 on ToR tor-a (lengths 1.05 m, 2.05 m, ...), 10 disabled, and 5 in another fabric."""
    fabric = FabricFactory(name="tables")
    tor = SwitchFactory(fabric=fabric, name="tor-a", tier=0)
    spines = [SwitchFactory(fabric=fabric, name=f"spine-{n:02d}", tier=1) for n in range(60)]
    links = [
        LinkFactory(
            fabric=fabric,
            a_switch=tor,
            a_port=f"eth{n}",
            z_switch=spine,
            z_port="eth0",
            length_m=n + 1.05,
            admin_state=Link.AdminState.DISABLED if n % 6 == 0 else Link.AdminState.ENABLED,
        )
        for n, spine in enumerate(spines)
    ]
    LinkFactory.create_batch(5)
    return fabric, links


def test_links_csv_has_every_filtered_row_in_the_requested_order(client_for, many_links):
    fabric, _ = many_links
    response = client_for("viewer").get(
        "/api/links/", {"fabric": fabric.pk, "ordering": "-length_m", "format": "csv", "limit": 5}
    )
    rows = csv_rows(response)
    assert len(rows) == 60 > PAGE  # every row, not one page (and `limit` is a page's, ignored)
    assert [row["Z switch"] for row in rows[:3]] == ["spine-59", "spine-58", "spine-57"]
    first = rows[0]
    assert first["A switch"] == "tor-a" and first["A port"] == "eth59"
    assert first["Length (m)"] == "60"  # rounded as the page shows it ("60 m"), not 60.05
    # Words as the page's badges write them ("enabled", not Django's made-up label "Enabled").
    assert first["Admin state"] == "enabled" and first["Health"] == "unknown"
    assert response["Content-Disposition"] == 'attachment; filename="links.csv"'


def test_links_csv_by_accept_header_applies_filters(client_for, many_links):
    fabric, _ = many_links
    response = client_for("viewer").get(
        "/api/links/", {"fabric": fabric.pk, "admin_state": "disabled"}, HTTP_ACCEPT="text/csv"
    )
    rows = csv_rows(response)
    assert len(rows) == 10
    assert {row["Admin state"] for row in rows} == {"disabled"}


def test_csv_export_of_a_bad_query_is_a_400_listing_every_problem(client_for, many_links):
    response = client_for("viewer").get(
        "/api/links/", {"fabric": "x", "ordering": "colour", "format": "csv"}, HTTP_ACCEPT="text/csv"
    )
    assert response.status_code == 400
    body = response.json()
    assert set(body) == {"fabric", "ordering"}
    assert "colour" in body["ordering"][0] and "length_m" in body["ordering"][0]


def test_unknown_format_is_a_400(client_for, many_links):
    response = client_for("viewer").get("/api/links/", {"format": "xlsx"})
    assert response.status_code == 400
    assert "xlsx" in response.json()["format"][0]


@pytest.mark.parametrize("endpoint", ["/api/links/", "/api/tickets/", "/api/decisions/", "/api/jobs/", "/api/audit/"])
def test_ordering_by_an_unknown_field_is_a_400_naming_it(client_for, endpoint, db):
    response = client_for("viewer").get(endpoint, {"ordering": "-id,no_such_field"})
    assert response.status_code == 400, response.content
    messages = response.json()["ordering"]
    assert len(messages) == 1 and "no_such_field" in messages[0]


def test_links_sort_by_switch_name_pages_in_that_order(client_for, many_links):
    fabric, _ = many_links
    client = client_for("viewer")
    first = client.get("/api/links/", {"fabric": fabric.pk, "ordering": "-z_switch__name", "limit": 2}).json()
    assert [row["z_switch_name"] for row in first["results"]] == ["spine-59", "spine-58"]


def test_csv_needs_the_lists_permission(anonymous, client_for, many_links):
    assert anonymous.get("/api/links/", {"format": "csv"}).status_code == 401
    assert client_for(None).get("/api/links/", {"format": "csv"}).status_code == 403


def test_audit_csv_names_who_and_what_with_iso_utc_times(client_for, make_user, many_links):
    fabric, links = many_links
    operator = make_user("operator", "olga")
    AuditEvent.objects.create(
        user=operator, action="update", object_type="link", object_id=links[0].pk, object_repr="tor-a eth0"
    )
    AuditEvent.objects.create(user=None, action="create", object_type="fabric", object_id=fabric.pk, object_repr="x")
    rows = csv_rows(client_for("viewer").get("/api/audit/", {"user": operator.pk, "format": "csv"}))
    assert len(rows) == 1
    row = rows[0]
    assert (row["Who"], row["Action"], row["Object type"], row["Object"]) == ("olga", "Changed", "link", "tor-a eth0")
    assert row["Time"].endswith("Z") and "T" in row["Time"] and "." not in row["Time"]
