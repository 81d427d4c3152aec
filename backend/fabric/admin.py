from django.contrib import admin

from .models import Fabric, Link, Switch, Transceiver, TransceiverModel


@admin.register(Fabric)
class FabricAdmin(admin.ModelAdmin):
    list_display = ["name", "tiers", "capacity_constraint", "updated"]


@admin.register(Switch)
class SwitchAdmin(admin.ModelAdmin):
    list_display = ["name", "fabric", "tier", "pod", "plane"]
    list_filter = ["fabric", "tier"]
    search_fields = ["name"]


@admin.register(Link)
class LinkAdmin(admin.ModelAdmin):
    list_display = ["id", "fabric", "a_switch", "a_port", "z_switch", "z_port", "admin_state", "oper_state"]
    list_filter = ["fabric", "admin_state", "oper_state"]
    raw_id_fields = ["a_switch", "z_switch"]


admin.site.register(TransceiverModel)
admin.site.register(Transceiver)
