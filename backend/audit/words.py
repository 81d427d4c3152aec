"""The change log in words, for the page and its CSV alike (issue #20 "Reading": codes stay in the
API's `before`/`after`; people read "Ticket step", "Changed", "state: In progress → Awaiting
validation", "assignee: (none) → tina"). The words come from the models themselves: their verbose
names and their fields' choices and verbose names, so a new model or field reads right unasked."""

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.exceptions import FieldDoesNotExist
from django.db import models

from .models import AuditEvent

# Bookkeeping a person never set: it changes with every write and says nothing about the change.
HIDDEN_FIELDS = frozenset({"state_version", "updated", "modified"})
NONE = "(none)"


def _model(object_type: str) -> type[models.Model] | None:
    try:
        return apps.get_model(object_type)
    except (LookupError, ValueError):
        return None  # an old row's label, or no model at all ("link" in hand-written rows)


def object_type_label(object_type: str) -> str:
    """'corruption.ticketstep' -> 'Ticket step'; a label of no model as it is."""
    model = _model(object_type)
    if model is None:
        return object_type
    name = str(model._meta.verbose_name)
    return name[:1].upper() + name[1:]


def _user_fields(model: type[models.Model] | None) -> set[str]:
    if model is None:
        return set()
    return {
        field.name
        for field in model._meta.concrete_fields
        if isinstance(field, models.ForeignKey) and field.related_model == get_user_model()
    }


def usernames_in(events: Iterable[AuditEvent]) -> dict[int, str]:
    """The usernames of every user id the events' snapshots hold (one query for a page)."""
    ids: set[int] = set()
    for event in events:
        fields = _user_fields(_model(event.object_type))
        for snapshot in (event.before, event.after):
            if isinstance(snapshot, dict):
                ids.update(value for name, value in snapshot.items() if name in fields and isinstance(value, int))
    if not ids:
        return {}
    user_model = get_user_model()
    return dict(user_model.objects.filter(pk__in=ids).values_list("pk", user_model.USERNAME_FIELD))


def _value_text(field: models.Field | None, value: Any) -> str:
    if value is None or value == "" or value == []:
        return NONE
    if field is not None and field.choices:
        return str(dict(field.flatchoices).get(value, value))
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(field, models.DateTimeField) and isinstance(value, str):
        try:
            moment = dt.datetime.fromisoformat(value.replace("Z", "+00:00")).astimezone(dt.UTC)
        except ValueError:
            return value
        return moment.strftime("%Y-%m-%d %H:%M UTC")
    if isinstance(value, str):
        return value
    return str(value) if isinstance(value, int | float) else repr(value)


def changes(event: AuditEvent, usernames: dict[int, str]) -> list[dict[str, str]]:
    """What an update changed, field by field in words: [{field, before, after}]. Empty for a
    creation, a deletion, or snapshots that differ in nothing a person set."""
    before, after = event.before, event.after
    if event.action != AuditEvent.Action.UPDATE or not isinstance(before, dict) or not isinstance(after, dict):
        return []
    model = _model(event.object_type)
    users = _user_fields(model)
    rows = []
    for name in dict.fromkeys([*before, *after]):
        if name in HIDDEN_FIELDS or before.get(name) == after.get(name):
            continue
        field = _field(model, name)
        label = str(field.verbose_name) if field is not None else name.replace("_", " ")
        is_user = name in users
        rows.append(
            {
                "field": label,
                "before": _text(field, before.get(name), is_user, usernames),
                "after": _text(field, after.get(name), is_user, usernames),
            }
        )
    return rows


def _text(field: models.Field | None, value: Any, is_user: bool, usernames: dict[int, str]) -> str:
    if is_user and isinstance(value, int):
        return usernames.get(value, f"user {value}")  # a user deleted since
    return _value_text(field, value)


def change_text(rows: list[dict[str, str]]) -> str:
    """'state: In progress → Awaiting validation; assignee: (none) → tina'."""
    return "; ".join(f"{row['field']}: {row['before']} → {row['after']}" for row in rows)


def _field(model: type[models.Model] | None, name: str) -> models.Field | None:
    if model is None:
        return None
    try:
        field = model._meta.get_field(name)
    except FieldDoesNotExist:
        return None
    return field if isinstance(field, models.Field) else None
