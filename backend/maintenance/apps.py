from django.apps import AppConfig


class MaintenanceConfig(AppConfig):
    name = "maintenance"
    verbose_name = "Maintenance: footprints and work orders"

    def ready(self) -> None:
        from fabric.signals import capacity_lost

        from . import jobs  # noqa: F401  (registers the tickets.plan job kind)
        from .services.recovery import on_capacity_lost

        # Links went down: recover the fabric's capacity once that commits.
        capacity_lost.connect(on_capacity_lost, dispatch_uid="maintenance.recover_on_capacity_lost")
