from django.apps import AppConfig


class PlanningConfig(AppConfig):
    name = "planning"
    verbose_name = "RAIL planning"

    def ready(self) -> None:
        from . import jobs  # noqa: F401  (registers rail.plan and rail.classes)
