from django.apps import AppConfig


class ReconfigConfig(AppConfig):
    name = "reconfig"
    verbose_name = "ShareBackup and Larry"

    def ready(self) -> None:
        from . import jobs  # noqa: F401  (registers sharebackup.plan and larry.run)
