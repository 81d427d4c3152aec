from django.apps import AppConfig


class FabricConfig(AppConfig):
    name = "fabric"
    verbose_name = "Fabric topology"

    def ready(self) -> None:
        from . import jobs  # noqa: F401  (registers the fabric job kinds)
