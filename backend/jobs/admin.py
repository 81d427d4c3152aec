from django.contrib import admin

from .models import Job


@admin.register(Job)
class JobAdmin(admin.ModelAdmin):
    list_display = ["id", "kind", "state", "progress", "fabric", "created_by", "created"]
    list_filter = ["kind", "state"]
