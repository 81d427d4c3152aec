from django.apps import AppConfig


class CorruptionConfig(AppConfig):
    name = "corruption"
    verbose_name = "CorrOpt decisions"

    def ready(self) -> None:
        from fabric.signals import capacity_changed

        from . import jobs  # noqa: F401  (registers the corruption job kinds)
        from .optimizer import on_capacity_changed

        capacity_changed.connect(on_capacity_changed, dispatch_uid="corruption.optimize_on_capacity_change")
