from django.conf import settings
from django.db import models


class AuditEvent(models.Model):
    """Who changed what, with the object's state before and after."""

    class Action(models.TextChoices):
        # The labels are the change log's words (the page, the CSV); the values stay the API's codes.
        CREATE = "create", "Created"
        UPDATE = "update", "Changed"
        DELETE = "delete", "Deleted"
        IMPORT = "import", "Imported"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    action = models.CharField(max_length=16, choices=Action.choices)
    object_type = models.CharField(max_length=64)
    object_id = models.BigIntegerField(null=True)
    object_repr = models.CharField(max_length=200)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    # Why, where the object does not say it: "capacity override: ...", "telemetry: oper_status".
    note = models.CharField(max_length=300, blank=True, db_default="")
    timestamp = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-timestamp", "-id"]
        indexes = [models.Index(fields=["object_type", "object_id"])]

    def __str__(self) -> str:
        return f"{self.action} {self.object_type} {self.object_repr}"
