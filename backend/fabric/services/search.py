"""The header's search (issue #20, "Find"): one query over switches, ports, links, transceiver
serials, racks, tickets and jobs, answered as the user types.

Every kind is one query that an index answers on the 100K-link fabric (BENCHMARKS.md, "Search"):
names, racks and serials are substrings under pg_trgm GIN indexes on their upper case (Django's
`icontains` is `UPPER(x::text) LIKE UPPER('%q%')`), ports are prefixes under a `text_pattern_ops`
btree on the upper case, and numbers are primary keys. Each kind fetches one row more than it
shows, to say that there are more, never a count (a count of "eth" would read every port)."""

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import quote

from django.db.models import Case, IntegerField, Q, QuerySet, Value, When
from django.db.models.functions import Length

from corruption.models import Ticket
from jobs.models import Job
from jobs.registry import KINDS, kind_title

from ..models import Fabric, Link, Switch, Transceiver
from .overview import drained, tier_name

MAX_QUERY_LENGTH = 100  # longer than any name, port or serial the models store
# pg_trgm indexes strings of 3 characters and more: a shorter query is a prefix of a switch name or
# rack (a scan of the switches, a few thousand rows) and is not looked for in serials (every
# transceiver's row).
MIN_SUBSTRING = 3
MAX_NAMED_SWITCHES = 100  # switches of one name across fabrics, for a link by its ends' names
DEFAULT_PER_KIND = 5
MAX_PER_KIND = 20

# The page that shows a job of each kind (the UI's features/jobs/jobPages.ts names the same);
# other kinds (imports, capacity reports) show on the jobs list.
JOB_PAGES = {
    "corruption.simulate": "/simulations",
    "corruption.optimize": "/optimizer",
    "rail.plan": "/planning/plans",
    "rail.classes": "/planning/classes",
    "circuits.schedule": "/circuits/schedules",
    "sharebackup.plan": "/sharebackup",
    "larry.run": "/larry",
}

# "#12", "12", "ticket 12", "job 12", "link 12": the word says which kind the number is.
NUMBER = re.compile(r"^(?:(?P<word>ticket|job|link)\s*)?#?\s*(?P<number>\d{1,18})$", re.IGNORECASE)
# "tor1 - spine2" (or an en dash): a link by its two switches' names; the spaces are needed, names
# hold hyphens.
LINK_ENDS = re.compile(r"^(?P<a>[^\s]+)\s+[-\u2013]\s+(?P<z>[^\s]+)$")
MAX_ID = 2**63 - 1


class SearchError(ValueError):
    def __init__(self, problems: dict[str, list[str]]):
        super().__init__("; ".join(f"{key}: {' '.join(messages)}" for key, messages in problems.items()))
        self.problems = problems


@dataclass
class Group:
    kind: str
    title: str
    hits: list[dict] = field(default_factory=list)
    more: bool = False


def clean_query(q: str | None, per_kind: str | None) -> tuple[str, int]:
    """The query and the hits per kind, or SearchError naming every problem."""
    problems: dict[str, list[str]] = {}
    text = " ".join((q or "").split())
    if not text:
        problems["q"] = ["type what to find: a switch, port, link, serial, rack, ticket or job"]
    elif len(text) > MAX_QUERY_LENGTH:
        problems["q"] = [f"at most {MAX_QUERY_LENGTH} characters, got {len(text)}"]
    limit = DEFAULT_PER_KIND
    if per_kind not in (None, ""):
        try:
            limit = int(per_kind)
        except ValueError:
            limit = 0
        if not 1 <= limit <= MAX_PER_KIND:
            problems["limit"] = [f"a whole number from 1 to {MAX_PER_KIND}, got {per_kind!r}"]
    if problems:
        raise SearchError(problems)
    return text, limit


def search(q: str, *, fabric: Fabric | None = None, per_kind: int = DEFAULT_PER_KIND) -> list[Group]:
    """The groups with hits, in a fixed order; each hit is {label, subtitle, path}."""
    finders: list[tuple[str, str, Callable[[str, Fabric | None, int], tuple[list[dict], bool]]]] = [
        ("switch", "Switches", _switches),
        ("port", "Ports", _ports),
        ("link", "Links", _links),
        ("transceiver", "Transceivers", _serials),
        ("rack", "Racks", _racks),
        ("ticket", "Tickets", _tickets),
        ("job", "Jobs", _jobs),
    ]
    if _number(q) is not None:
        # "#3" or "3" is most often a ticket's number (a technician's lookup), then a job's; a link
        # by id comes after them (trial 28: link #3 was listed above ticket #3).
        order = {"ticket": 0, "job": 1}
        finders.sort(key=lambda finder: order.get(finder[0], 2))
    groups = []
    for kind, title, finder in finders:
        hits, more = finder(q, fabric, per_kind)
        if hits:
            groups.append(Group(kind, title, hits, more))
    return groups


def _page(rows: QuerySet | list, per_kind: int) -> tuple[list, bool]:
    rows = list(rows[: per_kind + 1])
    return rows[:per_kind], len(rows) > per_kind


def _in_fabric(queryset: QuerySet, fabric: Fabric | None, path: str = "fabric") -> QuerySet:
    return queryset if fabric is None else queryset.filter(**{path: fabric})


def _number(q: str) -> tuple[str | None, int] | None:
    match = NUMBER.match(q)
    if match is None or int(match["number"]) > MAX_ID:
        return None
    return (match["word"] or "").lower() or None, int(match["number"])


def _closest_first(name_field: str, q: str) -> list:
    """Exact names, then names that start with q, then shorter names: "tor1" before "tor10"."""
    rank = Case(
        When(**{f"{name_field}__iexact": q}, then=Value(0)),
        When(**{f"{name_field}__istartswith": q}, then=Value(1)),
        default=Value(2),
        output_field=IntegerField(),
    )
    return [rank, Length(name_field), name_field]


def switch_subtitle(switch: Switch, drained: bool) -> str:
    parts = [switch.fabric.name, tier_name(switch.fabric, switch.tier)]
    if switch.rack:
        parts.append(f"rack {switch.rack}")
    if switch.pod is not None:
        parts.append(f"pod {switch.pod}")
    if drained:
        parts.append("drained")
    return " · ".join(parts)


def _matching(field_name: str, q: str) -> Q:
    lookup = "icontains" if len(q) >= MIN_SUBSTRING else "istartswith"
    return Q(**{f"{field_name}__{lookup}": q})


def _switches(q: str, fabric: Fabric | None, per_kind: int) -> tuple[list[dict], bool]:
    rows = (
        _in_fabric(Switch.objects.filter(_matching("name", q)), fabric)
        .select_related("fabric")
        .annotate(is_drained=drained())
        .order_by(*_closest_first("name", q), "fabric_id")
    )
    found, more = _page(rows, per_kind)
    return [
        {"label": row.name, "subtitle": switch_subtitle(row, row.is_drained), "path": f"/switches/{row.pk}"}
        for row in found
    ], more


def link_subtitle(link: Link) -> str:
    state = "in service" if link.usable else f"{link.admin_state}, {link.oper_state}"
    racks = f"racks {link.a_switch.rack or '—'} / {link.z_switch.rack or '—'}"
    return " · ".join([link.fabric.name, link.health, state, racks])


def _link_rows() -> QuerySet:
    return Link.objects.select_related("fabric", "a_switch", "z_switch")


def _ports(q: str, fabric: Fabric | None, per_kind: int) -> tuple[list[dict], bool]:
    """ "tor1:eth2/1": the ports of switches named tor1 (exactly) that start with eth2/1;
    "eth2/1": every port that starts with it, either end."""
    switch_name, _, port = q.rpartition(":")
    hits: list[tuple[int, str, Link]] = []
    more = False
    for side in ("a", "z"):
        rows = _in_fabric(_link_rows().filter(**{f"{side}_port__istartswith": port}), fabric)
        if switch_name:
            rows = rows.filter(**{f"{side}_switch__name__iexact": switch_name})
        elif not port:
            return [], False
        found, side_more = _page(rows.order_by("id"), per_kind)
        more |= side_more
        hits += [(row.pk, side, row) for row in found]
    hits.sort(key=lambda hit: (hit[0], hit[1]))
    more |= len(hits) > per_kind
    answer = []
    for _link_id, side, link in hits[:per_kind]:
        here, there = ("a", "z") if side == "a" else ("z", "a")
        switch, other = getattr(link, f"{here}_switch"), getattr(link, f"{there}_switch")
        answer.append(
            {
                "label": f"{switch.name}:{getattr(link, f'{here}_port')}",
                "subtitle": f"to {other.name}:{getattr(link, f'{there}_port')} · {link_subtitle(link)}",
                "path": f"/links/{link.pk}",
            }
        )
    return answer, more


def _link_hit(link: Link) -> dict:
    return {"label": str(link), "subtitle": link_subtitle(link), "path": f"/links/{link.pk}"}


def _links(q: str, fabric: Fabric | None, per_kind: int) -> tuple[list[dict], bool]:
    """A link by id ("12", "link 12") or by its two switches' names ("tor1 - spine2", either order)."""
    number = _number(q)
    if number is not None and number[0] in (None, "link"):
        rows = _in_fabric(_link_rows().filter(pk=number[1]), fabric)
        return [_link_hit(link) for link in rows], False
    ends = LINK_ENDS.match(q)
    if ends is None:
        return [], False
    # Both ends among the switches of either name (one switch cannot be both ends): the switches
    # first, through the name index, then their links through the (switch, port) indexes; as one
    # query PostgreSQL joined every link to the switches instead.
    named = _in_fabric(Switch.objects.filter(Q(name__iexact=ends["a"]) | Q(name__iexact=ends["z"])), fabric)
    ids = list(named.values_list("pk", flat=True)[:MAX_NAMED_SWITCHES])
    rows = _link_rows().filter(a_switch__in=ids, z_switch__in=ids).order_by("id")
    found, more = _page(rows, per_kind)
    return [_link_hit(link) for link in found], more


def _serials(q: str, fabric: Fabric | None, per_kind: int) -> tuple[list[dict], bool]:
    if len(q) < MIN_SUBSTRING:
        return [], False
    rows = _in_fabric(
        Transceiver.objects.filter(serial__icontains=q)
        .exclude(serial="")
        .select_related("model", "link__fabric", "link__a_switch", "link__z_switch"),
        fabric,
        "link__fabric",
    ).order_by(*_closest_first("serial", q), "id")
    found, more = _page(rows, per_kind)
    answer = []
    for row in found:
        link = row.link
        end = link.a_switch if row.side == Transceiver.Side.A else link.z_switch
        port = link.a_port if row.side == Transceiver.Side.A else link.z_port
        answer.append(
            {
                "label": row.serial,
                "subtitle": f"{row.model.name} in {end.name}:{port} · {link.fabric.name}"
                + (f" · rack {end.rack}" if end.rack else ""),
                "path": f"/links/{link.pk}",
            }
        )
    return answer, more


def _racks(q: str, fabric: Fabric | None, per_kind: int) -> tuple[list[dict], bool]:
    rows = (
        _in_fabric(Switch.objects.filter(_matching("rack", q)), fabric)
        .values("fabric_id", "fabric__name", "rack")
        .distinct()
        .order_by(*_closest_first("rack", q), "fabric_id")
    )
    found, more = _page(rows, per_kind)
    return [
        {
            "label": f"rack {row['rack']}",
            "subtitle": row["fabric__name"],
            "path": rack_path(row["fabric_id"], row["rack"]),
        }
        for row in found
    ], more


def rack_path(fabric_id: int, rack: str) -> str:
    return f"/fabrics/{fabric_id}/racks/{quote(rack, safe='')}"


def _tickets(q: str, fabric: Fabric | None, per_kind: int) -> tuple[list[dict], bool]:
    number = _number(q)
    if number is None or number[0] not in (None, "ticket"):
        return [], False
    rows = _in_fabric(
        Ticket.objects.filter(pk=number[1]).select_related("fabric", "link__a_switch", "link__z_switch"), fabric
    )
    return [
        {
            "label": f"Ticket #{ticket.pk}",
            "subtitle": f"{ticket.get_state_display().lower()} · {ticket.get_kind_display().lower()} · {ticket.link} · "
            f"{ticket.fabric.name}",
            "path": f"/tickets/{ticket.pk}",
        }
        for ticket in rows
    ], False


def _jobs(q: str, fabric: Fabric | None, per_kind: int) -> tuple[list[dict], bool]:
    """A job by id ("12", "job 12"), by kind ("corruption.opt", "rail") or by its kind's title
    ("CorrOpt", "what-if"); labelled with the title, as the Jobs page names it."""
    number = _number(q)
    if number is not None:
        if number[0] not in (None, "job"):
            return [], False
        rows = Job.objects.filter(pk=number[1])
    else:
        titled = [kind.name for kind in KINDS.values() if q.casefold() in kind.title.casefold()]
        rows = Job.objects.filter(Q(kind__istartswith=q) | Q(kind__in=titled)).order_by("-created", "-id")
    found, more = _page(_in_fabric(rows.select_related("fabric"), fabric), per_kind)
    return [
        {
            "label": f"Job #{job.pk} · {kind_title(job.kind)}",
            "subtitle": " · ".join(
                [
                    job.get_state_display().lower(),
                    *([job.fabric.name] if job.fabric else []),
                    f"{job.created:%Y-%m-%d %H:%M} UTC",
                ]
            ),
            "path": f"{JOB_PAGES[job.kind]}/{job.pk}" if job.kind in JOB_PAGES else "/jobs",
        }
        for job in found
    ], more
