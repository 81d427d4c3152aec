"""The link list as a client pages through it (issue #16 made `?fabric=F` fast without changing
what it answers): one fabric's links in id order, several fabrics' by fabric name then id, ties of
an explicit ordering in id order, each row's URL the one its detail answers at."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from fabric import services
from fabric.models import Link
from lightpath_fixtures.generators import fb_fabric


def small(name: str):
    # 2 pods x 4 ToRs x 2 fabric switches + 2 x 2 x 3 spine links: 28 links.
    return services.import_document(fb_fabric(2, tors_per_pod=4, fabric_per_pod=2, spines_per_plane=3, name=name))


def every_page(client, query: dict, limit: int = 5) -> list[dict]:
    rows, offset = [], 0
    while True:
        body = client.get("/api/links/", {**query, "limit": limit, "offset": offset}).json()
        rows += body["results"]
        offset += limit
        if body["next"] is None:
            assert len(rows) == body["count"]
            return rows


@pytest.fixture
def fabrics(db):
    # Imported first, named last: the list across fabrics goes by name, not by id.
    zulu = small("zulu")
    alpha = small("alpha")
    return alpha, zulu


def ids(fabric) -> list[int]:
    return list(Link.objects.filter(fabric=fabric).order_by("id").values_list("id", flat=True))


def test_one_fabric_pages_in_id_order_every_link_once(client_for, fabrics):
    alpha, zulu = fabrics
    client = client_for("viewer")
    for fabric in fabrics:
        rows = every_page(client, {"fabric": fabric.pk})
        assert [row["id"] for row in rows] == ids(fabric)
        assert {row["fabric"] for row in rows} == {fabric.pk}
    # Across fabrics: by the fabric's name, then id, filtered or not.
    expected = ids(alpha) + ids(zulu)
    assert [row["id"] for row in every_page(client, {})] == expected
    assert [row["id"] for row in every_page(client, {"fabric": [zulu.pk, alpha.pk]})] == expected


def test_explicit_ordering_keeps_ties_in_id_order_across_pages(client_for, fabrics):
    alpha, _ = fabrics
    links = ids(alpha)
    # Three lengths only, assigned against id order: most links tie with others.
    for index, link_id in enumerate(links):
        Link.objects.filter(pk=link_id).update(length_m=[30.0, 10.0, 20.0][index % 3])
    client = client_for("viewer")
    rows = every_page(client, {"fabric": alpha.pk, "ordering": "-length_m"}, limit=4)
    lengths = dict(Link.objects.filter(fabric=alpha).values_list("id", "length_m"))
    assert [row["id"] for row in rows] == sorted(links, key=lambda pk: (-lengths[pk], pk))
    # Without the fabric filter, with another one: every fabric's links, ties in id order.
    rows = every_page(client, {"speed_gbps": 100, "ordering": "length_m"}, limit=4)
    lengths = dict(Link.objects.values_list("id", "length_m"))
    assert [row["id"] for row in rows] == sorted(lengths, key=lambda pk: (lengths[pk], pk))


def test_each_rows_url_is_where_its_detail_answers(client_for, fabrics):
    alpha, _ = fabrics
    client = client_for("viewer")
    for row in client.get("/api/links/", {"fabric": alpha.pk, "limit": 1000}).json()["results"]:
        assert row["url"] == f"http://testserver/api/links/{row['id']}/"
        detail = client.get(row["url"]).json()
        assert detail == row


def test_list_of_a_fabric_costs_the_same_queries_for_a_page_of_5_or_28(client_for, fabrics):
    alpha, _ = fabrics
    client = client_for("viewer")
    client.get("/api/links/", {"fabric": alpha.pk})  # warm up auth caches
    with CaptureQueriesContext(connection) as few:
        assert len(client.get("/api/links/", {"fabric": alpha.pk, "limit": 5}).json()["results"]) == 5
    with CaptureQueriesContext(connection) as many:
        assert len(client.get("/api/links/", {"fabric": alpha.pk, "limit": 100}).json()["results"]) == 28
    assert len(many) == len(few), [query["sql"] for query in many.captured_queries]
    # The count and the page read the fabric's links without sorting them by every column.
    assert not any("DISTINCT" in query["sql"] for query in many.captured_queries)


def test_switch_and_fabric_filters_with_and_without_values(client_for, fabrics):
    alpha, zulu = fabrics
    client = client_for("viewer")
    tor = alpha.switches.get(name="p0-tor0")
    fab = alpha.switches.get(name="p0-fab0")

    def listed(**query) -> set[int]:
        return {row["id"] for row in every_page(client, query, limit=100)}

    alpha_links = set(ids(alpha))
    tor_links = set(Link.objects.filter(a_switch=tor).values_list("id", flat=True))
    fab_links = set(Link.objects.filter(a_switch=fab).values_list("id", flat=True)) | set(
        Link.objects.filter(z_switch=fab).values_list("id", flat=True)
    )
    assert len(tor_links) == 2 and len(fab_links) == 4 + 3
    assert listed(a_switch=tor.pk) == tor_links
    assert listed(fabric=alpha.pk, a_switch__n=tor.pk) == alpha_links - tor_links
    assert listed(switch=fab.pk) == fab_links
    assert listed(fabric__n=zulu.pk) == alpha_links
    assert listed(fabric=alpha.pk, z_switch__n=fab.pk, switch=tor.pk) == tor_links - fab_links
