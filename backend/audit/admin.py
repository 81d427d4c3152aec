from django.contrib import admin

from .models import AuditEvent


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    list_display = ["timestamp", "user", "action", "object_type", "object_repr"]
    list_filter = ["action", "object_type"]
    readonly_fields = [f.name for f in AuditEvent._meta.fields]
