from django.apps import AppConfig


class CircuitsConfig(AppConfig):
    name = "circuits"
    verbose_name = "Optical circuit schedules"

    def ready(self) -> None:
        from . import jobs  # noqa: F401  (registers the circuits.schedule job kind)
