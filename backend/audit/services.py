import json

from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.forms.models import model_to_dict

from .models import AuditEvent

CREATE = AuditEvent.Action.CREATE
UPDATE = AuditEvent.Action.UPDATE
DELETE = AuditEvent.Action.DELETE
IMPORT = AuditEvent.Action.IMPORT


def snapshot(instance: models.Model) -> dict:
    """The object's concrete fields as JSON-safe values."""
    return json.loads(json.dumps(model_to_dict(instance), cls=DjangoJSONEncoder))


def record(
    user,
    action: str,
    instance: models.Model,
    *,
    before: dict | None = None,
    after: dict | None = None,
    note: str = "",
) -> AuditEvent:
    return AuditEvent.objects.create(**_row(user, action, instance, before, after, note))


def record_many(user, action: str, changes: list[tuple[models.Model, dict | None]], *, note: str = "") -> None:
    """One audit row per (instance, before) with one INSERT: bulk changes stay fast."""
    AuditEvent.objects.bulk_create(
        [AuditEvent(**_row(user, action, instance, before, None, note)) for instance, before in changes]
    )


def _row(user, action: str, instance: models.Model, before: dict | None, after: dict | None, note: str) -> dict:
    if after is None and action != DELETE:
        after = snapshot(instance)
    return {
        "user": user if user is not None and user.is_authenticated else None,
        "action": action,
        "object_type": instance._meta.label_lower,
        "object_id": instance.pk,
        "object_repr": str(instance)[:200],
        "before": before,
        "after": after,
        "note": note[:300],
    }
