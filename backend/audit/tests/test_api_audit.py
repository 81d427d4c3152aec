"""/api/audit/ through the generic API tests: the audit log is read by every role and written by
no client (rows come from the changes they record)."""

import pytest

from audit import services as audit
from fabric.tests.factories import FabricFactory
from lightpath.tests.api_base import ReadOnlyAPIViewTestBase


class TestAuditEventAPI(ReadOnlyAPIViewTestBase):
    endpoint = "/api/audit/"
    brief_fields = None  # the audit log has no brief mode; ?brief=1 is ignored

    @pytest.fixture(autouse=True)
    def _author(self, make_user):
        self.author = make_user("planner", "auditor")

    def make_objects(self, count):
        return [audit.record(self.author, audit.CREATE, FabricFactory()) for _ in range(count)]

    def filter_cases(self, objects):
        deleted = FabricFactory()
        removal = audit.record(None, audit.DELETE, deleted, before=audit.snapshot(deleted))
        return [
            ({"action": "create"}, objects),
            ({"action": "delete"}, [removal]),
            ({"user": self.author.pk}, objects),
            ({"username": "auditor"}, objects),
            ({"object_id": objects[1].object_id, "object_type": "fabric.fabric"}, objects[1:2]),
        ]


@pytest.mark.django_db
def test_the_log_and_its_csv_say_what_changed_in_words(client_for, make_user, small_fabric):
    """Trial 28 items 3-4: the page read "state version: (none) → 12", users as ids, codes; the
    CSV had no change at all. Both now read the change in words, the same words."""
    import csv
    import io

    from fabric.models import Link
    from fabric.services import link_state

    operator = make_user("operator", "olga")
    link = Link.objects.filter(fabric=small_fabric).order_by("id").first()
    link_state.set_admin_state(link, Link.AdminState.DISABLED, "repair: reseat_transceiver", operator, override=True)

    client = client_for("viewer")
    (row,) = client.get("/api/audit/", {"object_type": "fabric.link", "object_id": link.pk}).json()["results"]
    assert row["action"] == "update" and row["object_type_label"] == "Link"
    changed = {change["field"]: (change["before"], change["after"]) for change in row["changes"]}
    assert changed["admin state"] == ("Enabled", "Disabled")
    assert changed["admin changed by"] == ("(none)", "olga")  # the username, not the id
    assert "state version" not in changed and "state_version" not in changed
    assert changed["admin changed at"][1].endswith(" UTC")

    export = client.get("/api/audit/", {"object_type": "fabric.link", "object_id": link.pk, "format": "csv"})
    (line,) = csv.DictReader(io.StringIO(b"".join(export.streaming_content).decode()))
    assert (line["Action"], line["Object type"]) == ("Changed", "Link")
    assert "admin state: Enabled → Disabled" in line["What changed"]
    assert "admin changed by: (none) → olga" in line["What changed"]


@pytest.mark.django_db
def test_a_page_of_changes_reads_its_usernames_in_one_query(
    client_for, make_user, small_fabric, django_assert_max_num_queries
):
    from fabric.models import Link
    from fabric.services import link_state

    for n, link in enumerate(Link.objects.filter(fabric=small_fabric).order_by("id")[:4]):
        link_state.set_admin_state(link, Link.AdminState.DISABLED, "", make_user("operator", f"op{n}"), override=True)
    client = client_for("viewer")
    with django_assert_max_num_queries(6):
        rows = client.get("/api/audit/", {"object_type": "fabric.link"}).json()["results"]
    assert {{c["field"]: c["after"] for c in row["changes"]}["admin changed by"] for row in rows} == {
        "op0",
        "op1",
        "op2",
        "op3",
    }


def test_a_tickets_changes_name_it_in_words_not_codes(client_for, small_fabric):
    from corruption.tests.test_tickets import disabled_ticket

    ticket = disabled_ticket(small_fabric)
    rows = client_for("viewer").get("/api/audit/", {"object_type": "corruption.ticket"}).json()["results"]
    assert f"Ticket #{ticket.pk} on link #{ticket.link_id}, open" in {row["object_repr"] for row in rows}
    steps = client_for("viewer").get("/api/audit/", {"object_type": "corruption.ticketstep"}).json()["results"]
    assert {row["object_repr"] for row in steps} == {f"Ticket #{ticket.pk}, step 1"}
    assert not any("_" in row["object_repr"] for row in rows + steps)  # no awaiting_validation, in_progress
