from django.apps import AppConfig


class CorruptionConfig(AppConfig):
    name = "corruption"
    verbose_name = "CorrOpt decisions"
