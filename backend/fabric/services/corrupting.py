"""The one definition of "corrupting in service", which the Health page's "Now", the Links
filter and the topology legend all count (docs/telemetry.md, "Corrupting in service").

It lives with the fabric because it is a question about links (the Links list and the topology
are fabric answers); the corruption metrics read it from here."""

from django.db.models import Exists, OuterRef, QuerySet

from telemetry.models import CorruptionEvent

from ..models import Link


def corrupting_in_service(links: QuerySet[Link]) -> QuerySet[Link]:
    """The links of `links` that carry traffic (enabled and up) and corrupt it now: they have an
    open corruption event. The derivation opens an event when a direction turns corrupting and
    closes it when it turns back; a technician's repair closes it too, so a repaired link awaiting
    validation counts again only once corruption is measured after the repair (a new event), not
    while its health still shows the pre-repair windows."""
    open_event = CorruptionEvent.objects.filter(link=OuterRef("pk"), ended_at__isnull=True)
    return links.filter(Exists(open_event), admin_state=Link.AdminState.ENABLED, oper_state=Link.OperState.UP)
