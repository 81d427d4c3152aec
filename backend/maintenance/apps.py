from django.apps import AppConfig


class MaintenanceConfig(AppConfig):
    name = "maintenance"
    verbose_name = "Maintenance: footprints and work orders"

    def ready(self) -> None:
        from . import jobs  # noqa: F401  (registers the tickets.plan job kind)
